import type { Address, Delivery, Party } from '../model.js';
import { CiiLevel, type CiiProfileRules } from './cii-profile.js';
import { child, leaf, leaves, type Node } from './xml-text.js';

type Role = 'seller' | 'buyer';

/**
 * SellerTradeParty (BG-4) / BuyerTradeParty (BG-7) in the XSD's TradePartyType order: ID, GlobalID,
 * Name, Description, SpecifiedLegalOrganization, DefinedTradeContact, PostalTradeAddress,
 * URIUniversalCommunication, SpecifiedTaxRegistration.
 */
export function ciiParty(parent: Node, name: string, party: Party, role: Role, rules: CiiProfileRules): void {
  const el = child(parent, name);
  const { level } = rules;
  if (level >= CiiLevel.BasicWl) partyIdentifier(el, party);
  leaf(el, 'ram:Name', party.name);
  if (level >= CiiLevel.Comfort && role === 'seller') leaf(el, 'ram:Description', party.legal_info);
  legalOrganization(el, party, level);
  if (level >= CiiLevel.Comfort && party.contact) contact(el, party);
  // MINIMUM carries the seller's country only (BT-40) and no buyer address (Factur-X MINIMUM).
  if (level >= CiiLevel.BasicWl) ciiAddress(el, 'ram:PostalTradeAddress', party.address);
  else if (role === 'seller')
    child(child(el, 'ram:PostalTradeAddress'), 'ram:CountryID').txt(party.address.country_code);
  if (level >= CiiLevel.BasicWl && party.electronic_address) {
    const { value, scheme } = party.electronic_address;
    leaf(child(el, 'ram:URIUniversalCommunication'), 'ram:URIID', value, { schemeID: scheme });
  }
  // Factur-X MINIMUM marks the buyer's VAT id (BT-48) as not used.
  if (level >= CiiLevel.BasicWl || role === 'seller') taxRegistrations(el, party, role);
}

/** BT-29/BT-46: with an ISO 6523 scheme it is a GlobalID, without one a plain ID. */
function partyIdentifier(el: Node, party: Party): void {
  if (!party.id) return;
  if (party.id_scheme) leaf(el, 'ram:GlobalID', party.id, { schemeID: party.id_scheme });
  else leaf(el, 'ram:ID', party.id);
}

/** BT-30/BT-47 legal registration and BT-28/BT-45 trading name (the latter from BASIC WL up). */
function legalOrganization(el: Node, party: Party, level: CiiLevel): void {
  const tradingName = level >= CiiLevel.BasicWl ? party.trading_name : undefined;
  if (!party.legal_registration_id && !tradingName) return;
  const org = child(el, 'ram:SpecifiedLegalOrganization');
  const scheme = party.legal_registration_scheme;
  leaf(org, 'ram:ID', party.legal_registration_id, scheme ? { schemeID: scheme } : undefined);
  leaf(org, 'ram:TradingBusinessName', tradingName);
}

function contact(el: Node, party: Party): void {
  const c = party.contact;
  if (!c || (!c.name && !c.phone && !c.email)) return;
  const ct = child(el, 'ram:DefinedTradeContact');
  leaf(ct, 'ram:PersonName', c.name);
  if (c.phone) leaf(child(ct, 'ram:TelephoneUniversalCommunication'), 'ram:CompleteNumber', c.phone);
  if (c.email) leaf(child(ct, 'ram:EmailURIUniversalCommunication'), 'ram:URIID', c.email);
}

/** BT-31/BT-48 VAT id (scheme VA) and the seller's BT-32 tax number (scheme FC). */
function taxRegistrations(el: Node, party: Party, role: Role): void {
  if (role === 'seller' && party.tax_number) {
    leaf(child(el, 'ram:SpecifiedTaxRegistration'), 'ram:ID', party.tax_number, { schemeID: 'FC' });
  }
  if (party.vat_id)
    leaf(child(el, 'ram:SpecifiedTaxRegistration'), 'ram:ID', party.vat_id, { schemeID: 'VA' });
}

/** TradeAddressType order: PostcodeCode, LineOne..Three, CityName, CountryID, CountrySubDivisionName. */
export function ciiAddress(parent: Node, name: string, a: Address): void {
  leaves(child(parent, name), {
    'ram:PostcodeCode': a.postal_code,
    'ram:LineOne': a.line1,
    'ram:LineTwo': a.line2,
    'ram:LineThree': a.line3,
    'ram:CityName': a.city,
    'ram:CountryID': a.country_code,
    'ram:CountrySubDivisionName': a.subdivision,
  });
}

/** ShipToTradeParty (BG-13): deliver-to name BT-70 and address BG-15. */
export function ciiShipTo(parent: Node, delivery: Delivery): void {
  if (!delivery.name && !delivery.address) return;
  const el = child(parent, 'ram:ShipToTradeParty');
  leaf(el, 'ram:Name', delivery.name);
  if (delivery.address) ciiAddress(el, 'ram:PostalTradeAddress', delivery.address);
}
