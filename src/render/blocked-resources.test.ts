import assert from 'node:assert/strict';
import { it } from 'node:test';
import { BlockedResources, MAX_LISTED_BLOCKED } from './blocked-resources.js';

it('lists the first 10 refusals as "URL: reason", counts all, once per URL', () => {
  const blocked = new BlockedResources();
  for (let i = 0; i < 15; i++) blocked.add(`http://10.0.0.${i}/x.png`, 'private address');
  blocked.add('http://10.0.0.1/x.png', 'private address');
  assert.equal(blocked.count, 15);
  assert.equal(blocked.list().length, MAX_LISTED_BLOCKED);
  assert.equal(blocked.list()[0], 'http://10.0.0.0/x.png: private address');
});

it('shortens very long URLs', () => {
  const blocked = new BlockedResources();
  blocked.add(`http://10.0.0.1/${'a'.repeat(1000)}`, 'private address');
  const entry = blocked.list()[0] ?? '';
  assert.ok(entry.length < 340 && entry.endsWith('…: private address'), entry);
});
