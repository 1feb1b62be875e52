import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { curlSnippet, typescriptSnippet } from '../../web/src/snippets.js';

/**
 * The dashboard's "Use from the API" snippets: the curl command is run by bash with `curl` replaced by a
 * function that prints its arguments, so quoting is checked by the shell a user pastes it into.
 */
function curlArguments(command: string, key: string): string[] {
  const script = `curl() { printf '%s\\0' "$@"; }\n${command}`;
  const out = execFileSync('bash', ['-c', script], { env: { PATH: process.env.PATH, QUIRE_API_KEY: key } });
  return out.toString('utf8').split('\0').slice(0, -1);
}

const TRICKY = {
  quote: "O'Brien & Sons",
  shell: '$(rm -rf /) `echo no` $HOME \\n',
  text: 'line one\nline two',
  unicode: 'Grüße 😀',
  nested: { list: [1, 'two', null, true] },
};

describe('API snippets', () => {
  const input = {
    origin: 'https://pdf.example.com',
    templateId: '0b9c1f3e-5a3d-4c7e-9f00-1234567890ab',
    data: TRICKY,
  };

  it('curl sends exactly the template id and data, with the key from $QUIRE_API_KEY', () => {
    const args = curlArguments(curlSnippet(input), 'qk_test_abc');
    assert.deepEqual(args.slice(0, 3), ['-X', 'POST', 'https://pdf.example.com/v1/pdf']);
    assert.ok(args.includes('Authorization: Bearer qk_test_abc'), args.join(' | '));
    const body = args[args.indexOf('-d') + 1] ?? '';
    assert.deepEqual(JSON.parse(body), { template_id: input.templateId, data: TRICKY });
    assert.deepEqual(args.slice(-2), ['-o', 'document.pdf']);
  });

  it('never contains a key, only the placeholder', () => {
    for (const snippet of [curlSnippet(input), typescriptSnippet(input)]) {
      assert.match(snippet, /QUIRE_API_KEY/);
      assert.doesNotMatch(snippet, /qk_(live|test)_/);
    }
  });

  it('the TypeScript snippet carries the same data as a literal', () => {
    const ts = typescriptSnippet(input);
    const literal = /data: ([\s\S]*),\n\}\);/.exec(ts)?.[1] ?? '';
    assert.deepEqual(JSON.parse(literal), TRICKY);
    assert.match(ts, /baseUrl: 'https:\/\/pdf\.example\.com'/);
    assert.match(ts, new RegExp(`template_id: '${input.templateId}'`));
  });
});
