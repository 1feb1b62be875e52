import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Decimal } from 'decimal.js';
import { formatAmount, formatDate, formatDecimal, formatIban, numberStyleFor } from './format.js';

const de = numberStyleFor('DE');
const us = numberStyleFor('US');

describe('invoice number formatting', () => {
  it('groups thousands and keeps exactly two decimals for money, without binary floats', () => {
    assert.equal(formatAmount(new Decimal('1234567.5'), de), '1.234.567,50');
    assert.equal(formatAmount(new Decimal('1234567.5'), us), '1,234,567.50');
    assert.equal(formatAmount(new Decimal('90071992547409.93'), de), '90.071.992.547.409,93');
    assert.equal(formatAmount(new Decimal('-16'), de), '-16,00');
    assert.equal(formatAmount(new Decimal('0'), de), '0,00');
  });

  it('drops trailing zeros of quantities and prices beyond the minimum', () => {
    assert.equal(formatDecimal(new Decimal('2.500000'), de, 0, 6), '2,5');
    assert.equal(formatDecimal(new Decimal('1000'), de, 0, 6), '1.000');
    assert.equal(formatDecimal(new Decimal('3.3333'), de, 2, 6), '3,3333');
    assert.equal(formatDecimal(new Decimal('4.5'), de, 2, 6), '4,50');
  });

  it('writes dates in the seller’s convention and IBANs in groups of four', () => {
    assert.equal(formatDate('2025-06-05', de), '05.06.2025');
    assert.equal(formatDate('2025-06-05', us), '2025-06-05');
    assert.equal(formatDate(undefined, de), null);
    assert.equal(formatIban('DE02120300000000202051'), 'DE02 1203 0000 0000 2020 51');
  });
});
