import type { Address, Delivery, Party } from '../model.js';
import { child, leaf, leaves, type Node } from './xml-text.js';

type Role = 'seller' | 'buyer';

/**
 * cac:Party (BG-4 / BG-7) in PartyType order: EndpointID, PartyIdentification*, PartyName,
 * PostalAddress, PartyTaxScheme*, PartyLegalEntity, Contact. Returns the wrapper, which national
 * extensions add to after the party (HR-CIUS's SellerContact).
 */
export function ublParty(parent: Node, wrapper: string, party: Party, role: Role, creditorId?: string): Node {
  const outer = child(parent, wrapper);
  const el = child(outer, 'cac:Party');
  if (party.electronic_address) {
    leaf(el, 'cbc:EndpointID', party.electronic_address.value, { schemeID: party.electronic_address.scheme });
  }
  if (party.id) {
    leaf(
      child(el, 'cac:PartyIdentification'),
      'cbc:ID',
      party.id,
      party.id_scheme ? { schemeID: party.id_scheme } : undefined,
    );
  }
  // BT-90, the SEPA creditor identifier, is a seller identification with scheme SEPA (EN 16931-3-2).
  if (creditorId) leaf(child(el, 'cac:PartyIdentification'), 'cbc:ID', creditorId, { schemeID: 'SEPA' });
  if (party.trading_name) leaf(child(el, 'cac:PartyName'), 'cbc:Name', party.trading_name);
  ublAddress(el, 'cac:PostalAddress', party.address);
  if (party.vat_id) taxScheme(el, party.vat_id, 'VAT');
  if (role === 'seller' && party.tax_number) taxScheme(el, party.tax_number, 'FC');
  legalEntity(el, party, role);
  contact(el, party);
  return outer;
}

function taxScheme(el: Node, companyId: string, scheme: string): void {
  const t = child(el, 'cac:PartyTaxScheme');
  leaf(t, 'cbc:CompanyID', companyId);
  leaf(child(t, 'cac:TaxScheme'), 'cbc:ID', scheme);
}

/** BT-27/44 registration name, BT-30/47 legal registration id, BT-33 additional legal info. */
function legalEntity(el: Node, party: Party, role: Role): void {
  const le = child(el, 'cac:PartyLegalEntity');
  leaf(le, 'cbc:RegistrationName', party.name);
  const scheme = party.legal_registration_scheme;
  leaf(le, 'cbc:CompanyID', party.legal_registration_id, scheme ? { schemeID: scheme } : undefined);
  if (role === 'seller') leaf(le, 'cbc:CompanyLegalForm', party.legal_info);
}

function contact(el: Node, party: Party): void {
  const c = party.contact;
  if (!c || (!c.name && !c.phone && !c.email)) return;
  leaves(child(el, 'cac:Contact'), {
    'cbc:Name': c.name,
    'cbc:Telephone': c.phone,
    'cbc:ElectronicMail': c.email,
  });
}

/** AddressType order: StreetName, AdditionalStreetName, CityName, PostalZone, CountrySubentity, AddressLine, Country. */
export function ublAddress(parent: Node, name: string, a: Address): void {
  const el = child(parent, name);
  leaves(el, {
    'cbc:StreetName': a.line1,
    'cbc:AdditionalStreetName': a.line2,
    'cbc:CityName': a.city,
    'cbc:PostalZone': a.postal_code,
    'cbc:CountrySubentity': a.subdivision,
  });
  if (a.line3) leaf(child(el, 'cac:AddressLine'), 'cbc:Line', a.line3);
  leaf(child(el, 'cac:Country'), 'cbc:IdentificationCode', a.country_code);
}

/** cac:Delivery (BG-13): ActualDeliveryDate, DeliveryLocation/Address, DeliveryParty/PartyName. */
export function ublDelivery(
  parent: Node,
  delivery: Delivery | undefined,
  deliveryDate: string | undefined,
): void {
  if (!delivery?.name && !delivery?.address && !deliveryDate) return;
  const d = child(parent, 'cac:Delivery');
  leaf(d, 'cbc:ActualDeliveryDate', deliveryDate);
  if (delivery?.address) ublAddress(child(d, 'cac:DeliveryLocation'), 'cac:Address', delivery.address);
  if (delivery?.name) leaf(child(child(d, 'cac:DeliveryParty'), 'cac:PartyName'), 'cbc:Name', delivery.name);
}
