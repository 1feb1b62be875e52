/**
 * Check-digit tests of the identifier schemes OpenPeppol validates (PEPPOL-COMMON-R040…R050, SE-R-013,
 * NO-R-001), written after the schematron's own functions (u:gln, u:mod11, u:mod97-0208, u:checkSEOrgnr, u:abn).
 */

function digits(value: string): number[] {
  return [...value].map(Number);
}

/** GS1 check digit: weights 3, 1, 3, … from the right, excluding the check digit. */
export function isGln(value: string): boolean {
  if (!/^[0-9]{2,}$/.test(value)) return false;
  const body = digits(value.slice(0, -1)).reverse();
  const sum = body.reduce((s, d, i) => s + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === Number(value.at(-1));
}

/** u:mod11: modulus 11 with weights 2…7 from the right, the last digit checking the others. */
export function mod11(value: string): boolean {
  if (!/^[0-9]+$/.test(value) || Number(value) === 0) return false;
  const body = digits(value.slice(0, -1)).reverse();
  const sum = body.reduce((s, d, i) => s + d * ((i % 6) + 2), 0);
  return (11 - (sum % 11)) % 11 === Number(value.at(-1));
}

/** Norwegian organisation number: 9 digits, mod 11. */
export function isNoOrg(value: string): boolean {
  return /^[0-9]{9}$/.test(value) && mod11(value);
}

/** The last two digits are 97 − (first eight mod 97). */
export function isBeEnterprise(value: string): boolean {
  if (!/^[0-9]{10}$/.test(value)) return false;
  return Number(value.slice(8)) === 97 - (Number(value.slice(0, 8)) % 97);
}

/** Luhn over the first nine digits gives the tenth. */
export function isSeOrg(value: string): boolean {
  if (!/^[0-9]{10}$/.test(value)) return false;
  const body = digits(value.slice(0, 9));
  const sum = body.reduce((s, d, pos) => {
    const fromRight = 9 - pos; // 1-based position from the right within the nine digits
    if (fromRight % 2 === 0) return s + d;
    const doubled = d * 2;
    return s + (doubled % 10) + Math.floor(doubled / 10);
  }, 0);
  return (10 - (sum % 10)) % 10 === Number(value[9]);
}

/** ABN: (first digit − 1) × 10 + weights 1, 3, 5, …, 19 for the others, divisible by 89. */
export function isAbn(value: string): boolean {
  if (!/^[0-9]{11}$/.test(value)) return false;
  const d = digits(value);
  const sum = (d[0]! - 1) * 10 + d.slice(1).reduce((s, x, i) => s + x * (2 * i + 1), 0);
  return sum % 89 === 0;
}
