import { Type } from 'typebox';

const opt = Type.Optional;
const text = (description: string, maxLength = 1000) => Type.String({ maxLength, description });

/** Extension `invoice.ksef` (standard ksef only): FA(3) fields EN 16931 has no term for. */
export const KsefFields = Type.Object(
  {
    exchange_rate: opt(
      Type.Union([Type.Number(), Type.String()], {
        description:
          'PLN per 1 unit of currency (KursWaluty, up to 6 decimals); required when currency is not PLN',
      }),
    ),
    place_of_issue: opt(text('P_1M place of issue', 256)),
    cash_accounting: opt(Type.Boolean({ description: 'P_16 metoda kasowa (default false)' })),
    self_billing: opt(Type.Boolean({ description: 'P_17 samofakturowanie (default false)' })),
    split_payment: opt(
      Type.Boolean({ description: 'P_18A mechanizm podzielonej płatności (default false)' }),
    ),
    corrected_ksef_number: opt(
      text(
        'KOR: the corrected invoice KSeF number; absent = the corrected invoice was issued outside KSeF',
        40,
      ),
    ),
    correction_reason: opt(text('KOR: PrzyczynaKorekty', 256)),
    correction_type: opt(
      Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)], {
        description: 'KOR: TypKorekty (1 in the corrected period, 2 in the correction period, 3 other)',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Extension, standard ksef only: Poland KSeF FA(3) fields. The Adnotacje markers default to "no"; reverse charge ' +
      '(P_18) and exemption (P_19) follow from the VAT categories',
  },
);
