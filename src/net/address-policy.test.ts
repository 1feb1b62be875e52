import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import ipaddr from 'ipaddr.js';
import { classifyAddress, isIpLiteral } from './address-policy.js';
import { refusedHostReason } from './guarded-agent.js';

/** One sample address inside every range ipaddr.js names; the test below fails when ipaddr.js adds one. */
const IPV4_SAMPLES: Record<string, string> = {
  unspecified: '0.1.2.3',
  broadcast: '255.255.255.255',
  multicast: '224.0.0.251',
  linkLocal: '169.254.169.254',
  loopback: '127.0.0.1',
  carrierGradeNat: '100.64.0.1',
  private: '192.168.1.1',
  reserved: '240.0.0.1',
  as112: '192.175.48.1',
  amt: '192.52.193.1',
  unicast: '93.184.216.34',
};

const IPV6_SAMPLES: Record<string, string> = {
  unspecified: '::',
  linkLocal: 'fe80::1',
  multicast: 'ff02::1',
  loopback: '::1',
  uniqueLocal: 'fd00::1',
  ipv4Mapped: '::ffff:10.0.0.1',
  deprecatedSiteLocal: 'fec0::1',
  discard: '100::1',
  rfc6145: '::ffff:0:a00:1',
  rfc6052: '64:ff9b::a00:1',
  '6to4': '2002:a00:1::1',
  teredo: '2001::1',
  benchmarking: '2001:2::1',
  amt: '2001:3::1',
  as112v6: '2001:4:112::1',
  deprecatedOrchid: '2001:10::1',
  orchid2: '2001:20::1',
  droneRemoteIdProtocolEntityTags: '2001:30::1',
  segmentRouting: '5f00::1',
  reserved: '2001:db8::1',
  unicast: '2606:4700::1111',
};

/** Ranges the development switch opens; every other non-unicast range stays refused with it. */
const PRIVATE = new Set(['loopback', 'private', 'uniqueLocal']);

type SpecialRanges = { prototype: { SpecialRanges: Record<string, unknown> } };

function rangeNames(kind: SpecialRanges): string[] {
  return [...Object.keys(kind.prototype.SpecialRanges), 'unicast'].sort();
}

describe('address policy: allow-list of public unicast', () => {
  it('has a sample for every range ipaddr.js knows, and each sample is in its range', () => {
    assert.deepEqual(Object.keys(IPV4_SAMPLES).sort(), rangeNames(ipaddr.IPv4 as unknown as SpecialRanges));
    assert.deepEqual(Object.keys(IPV6_SAMPLES).sort(), rangeNames(ipaddr.IPv6 as unknown as SpecialRanges));
    for (const [range, sample] of [...Object.entries(IPV4_SAMPLES), ...Object.entries(IPV6_SAMPLES)]) {
      assert.equal(ipaddr.parse(sample).range(), range, sample);
    }
  });

  for (const [family, samples] of [
    ['IPv4', IPV4_SAMPLES],
    ['IPv6', IPV6_SAMPLES],
  ] as const) {
    for (const [range, sample] of Object.entries(samples)) {
      const publicUnicast = range === 'unicast';
      // IPv4-mapped IPv6 is judged as the IPv4 address it carries (here 10.0.0.1, private).
      const opensForDevelopment = PRIVATE.has(range) || range === 'ipv4Mapped';
      it(`${family} ${range} (${sample}): ${publicUnicast ? 'allowed' : 'refused'}`, () => {
        assert.equal(classifyAddress(sample).ok, publicUnicast);
        assert.equal(classifyAddress(`[${sample}]`).ok, publicUnicast);
        assert.equal(
          classifyAddress(sample, { allowPrivate: true }).ok,
          publicUnicast || opensForDevelopment,
        );
      });
    }
  }

  it('refuses the ranges the old deny-list let through, with or without the development switch', () => {
    for (const address of [
      'fec0::1', // site-local (deprecated)
      '100::1', // discard
      '::7f00:1', // IPv4-compatible ::127.0.0.1 as WHATWG URL writes it
      '::a9fe:a9fe', // IPv4-compatible 169.254.169.254
      '::808:808', // IPv4-compatible 8.8.8.8: deprecated, never a route to the public host
      '2001:10::1', // ORCHID
      '2001:20::1', // ORCHIDv2
      '5f00::1', // segment routing
      '4000::1', // not global unicast
    ]) {
      assert.equal(classifyAddress(address).ok, false, address);
      assert.equal(classifyAddress(address, { allowPrivate: true }).ok, false, address);
    }
    assert.equal(isIpLiteral(new URL('http://[::127.0.0.1]/').hostname), true);
    assert.equal(classifyAddress(new URL('http://[::127.0.0.1]/').hostname).ok, false);
  });

  it('judges IPv4-mapped IPv6 and odd IPv4 spellings as the IPv4 address', () => {
    assert.equal(classifyAddress('::ffff:127.0.0.1').ok, false);
    assert.equal(classifyAddress('::ffff:93.184.216.34').ok, true);
    assert.equal(classifyAddress(new URL('http://2130706433/').hostname).ok, false); // 127.0.0.1
    assert.equal(classifyAddress(new URL('http://0x7f.1/').hostname).ok, false);
    assert.equal(classifyAddress('not an address').ok, false);
  });

  it('refusedHostReason judges IP literals even with the development switch', () => {
    const url = (host: string) => new URL(`https://${host}/x`);
    assert.equal(refusedHostReason(url('93.184.216.34'), false), null);
    assert.match(refusedHostReason(url('[::7f00:1]'), false) ?? '', /non-global/);
    assert.match(refusedHostReason(url('localhost'), false) ?? '', /loopback/);
    assert.equal(refusedHostReason(url('127.0.0.1'), true), null);
    assert.equal(refusedHostReason(url('localhost'), true), null);
    assert.match(refusedHostReason(url('169.254.169.254'), true) ?? '', /linkLocal/);
    assert.match(refusedHostReason(url('[ff02::1]'), true) ?? '', /multicast/);
  });
});
