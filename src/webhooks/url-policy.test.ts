import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkUrlAtDelivery, checkWebhookUrl, type Resolver } from './url-policy.js';

// Fake DNS: names used below map to fixed addresses, anything else does not resolve.
const zone: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34'],
  'dual.example.com': ['93.184.216.34', '10.0.0.7'],
  'internal.example.com': ['192.168.1.20'],
  'v6-private.example.com': ['fd12:3456::1'],
  'metadata.example.com': ['169.254.169.254'],
  localhost: ['127.0.0.1'],
};
const resolve: Resolver = async (host) => {
  const found = zone[host];
  if (!found) throw new Error('ENOTFOUND');
  return found;
};

const REFUSED: Array<[string, string]> = [
  ['http://hooks.example.com/hook', 'https_required'],
  ['ftp://hooks.example.com/hook', 'scheme'],
  ['file:///etc/passwd', 'scheme'],
  ['javascript:alert(1)', 'scheme'],
  ['not a url', 'invalid'],
  ['https://user:pass@hooks.example.com/hook', 'credentials'],
  ['https://user@hooks.example.com/hook', 'credentials'],
  ['https://hooks.example.com:8080/hook', 'port'],
  ['https://hooks.example.com:22/hook', 'port'],
  ['https://127.0.0.1/hook', 'private_address'],
  ['https://2130706433/hook', 'private_address'],
  ['https://0177.0.0.1/hook', 'private_address'],
  ['https://0x7f.0.0.1/hook', 'private_address'],
  ['https://0x7f000001/hook', 'private_address'],
  ['https://127.1/hook', 'private_address'],
  ['https://0.0.0.0/hook', 'private_address'],
  ['https://10.1.2.3/hook', 'private_address'],
  ['https://172.16.0.1/hook', 'private_address'],
  ['https://192.168.0.10/hook', 'private_address'],
  ['https://169.254.169.254/latest/meta-data/', 'private_address'],
  ['https://100.64.0.1/hook', 'private_address'],
  ['https://224.0.0.1/hook', 'private_address'],
  ['https://255.255.255.255/hook', 'private_address'],
  ['https://[::1]/hook', 'private_address'],
  ['https://[::]/hook', 'private_address'],
  ['https://[::ffff:127.0.0.1]/hook', 'private_address'],
  ['https://[::ffff:7f00:1]/hook', 'private_address'],
  ['https://[::ffff:169.254.169.254]/hook', 'private_address'],
  ['https://[fd00::1]/hook', 'private_address'],
  ['https://[fe80::1]/hook', 'private_address'],
  ['https://[ff02::1]/hook', 'private_address'],
  ['https://localhost/hook', 'private_address'],
  ['https://api.localhost/hook', 'private_address'],
  ['https://internal.example.com/hook', 'private_address'],
  ['https://dual.example.com/hook', 'private_address'],
  ['https://v6-private.example.com/hook', 'private_address'],
  ['https://metadata.example.com/hook', 'private_address'],
  ['https://nowhere.invalid/hook', 'dns'],
  [`https://hooks.example.com/${'a'.repeat(2100)}`, 'too_long'],
];

describe('checkWebhookUrl', () => {
  for (const [url, reason] of REFUSED) {
    it(`refuses ${url.slice(0, 60)} with ${reason}`, async () => {
      const verdict = await checkWebhookUrl(url, { allowPrivate: false, resolve });
      assert.equal(verdict.ok, false);
      assert.equal(verdict.ok ? null : verdict.reason, reason);
    });
  }

  it('accepts public https targets on 443, 80 and 8443', async () => {
    for (const url of [
      'https://hooks.example.com/hook',
      'https://hooks.example.com:8443/hook',
      'https://hooks.example.com:80/hook',
      'https://93.184.216.34/hook',
    ]) {
      const verdict = await checkWebhookUrl(url, { allowPrivate: false, resolve });
      assert.equal(verdict.ok, true, url);
    }
  });

  it('allowPrivate relaxes scheme, port and address checks only', async () => {
    const ok = await checkWebhookUrl('http://127.0.0.1:4567/hook', { allowPrivate: true, resolve });
    assert.equal(ok.ok, true);
    const creds = await checkWebhookUrl('http://u:p@127.0.0.1:4567/', { allowPrivate: true, resolve });
    assert.equal(creds.ok ? null : creds.reason, 'credentials');
    const dns = await checkWebhookUrl('http://nowhere.invalid/', { allowPrivate: true, resolve });
    assert.equal(dns.ok ? null : dns.reason, 'dns');
    const scheme = await checkWebhookUrl('ftp://127.0.0.1/', { allowPrivate: true, resolve });
    assert.equal(scheme.ok ? null : scheme.reason, 'scheme');
  });

  // Spec: QUIRE_ALLOW_PRIVATE_WEBHOOKS relaxes the scheme and port rules for loopback/private targets only.
  const UNDER_ALLOW_PRIVATE: Array<[string, string | null]> = [
    ['http://93.184.216.34/hook', 'https_required'],
    ['https://93.184.216.34:8080/hook', 'port'],
    ['http://hooks.example.com/hook', 'https_required'],
    ['https://hooks.example.com:8080/hook', 'port'],
    ['http://dual.example.com/hook', 'https_required'],
    ['http://localhost:3000/hook', null],
    ['http://internal.example.com:9000/hook', null],
    ['http://[fd00::1]:8080/hook', null],
    ['https://10.1.2.3:8443/hook', null],
    ['https://93.184.216.34/hook', null],
  ];
  for (const [url, reason] of UNDER_ALLOW_PRIVATE) {
    it(`with allowPrivate, ${url} is ${reason ?? 'accepted'}`, async () => {
      const verdict = await checkWebhookUrl(url, { allowPrivate: true, resolve });
      assert.equal(verdict.ok ? null : verdict.reason, reason);
    });
  }

  it('with allowPrivate, a delivery to a public http target is refused before connecting', async () => {
    for (const url of ['http://93.184.216.34/hook', 'http://hooks.example.com/hook']) {
      const verdict = await checkUrlAtDelivery(url, { allowPrivate: true, resolve });
      assert.equal(verdict.ok ? null : verdict.reason, 'https_required', url);
    }
    const local = await checkUrlAtDelivery('http://internal.example.com:9000/', {
      allowPrivate: true,
      resolve,
    });
    assert.equal(local.ok, true);
  });
});
