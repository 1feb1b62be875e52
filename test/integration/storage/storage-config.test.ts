import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config/config.js';

const storageOf = (url: string | undefined) =>
  loadConfig(url === undefined ? {} : { QUIRE_STORAGE_URL: url }).storage;

function refused(url: string): string {
  try {
    storageOf(url);
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    return err.message;
  }
  throw new Error(`${url} should be refused`);
}

describe('QUIRE_STORAGE_URL', () => {
  it('unset or empty: the local directory', () => {
    assert.equal(storageOf(undefined), null);
    assert.equal(storageOf(''), null);
  });

  it('parses bucket, prefix, endpoint, region and path style', () => {
    assert.deepEqual(
      storageOf(
        's3://my-bucket/quire/prod?endpoint=http://minio:9000&region=eu-west-1&force_path_style=true',
      ),
      {
        bucket: 'my-bucket',
        prefix: 'quire/prod/',
        endpoint: 'http://minio:9000',
        region: 'eu-west-1',
        forcePathStyle: true,
      },
    );
    assert.deepEqual(storageOf('s3://my-bucket'), {
      bucket: 'my-bucket',
      prefix: '',
      endpoint: null,
      region: null,
      forcePathStyle: false,
    });
  });

  it('refuses bad URLs with one clear line each, never echoing credentials', () => {
    assert.match(refused('https://bucket/x'), /QUIRE_STORAGE_URL must be an s3:\/\/BUCKET\/PREFIX URL/);
    assert.match(refused('s3://B_ad/x'), /must name a valid bucket/);
    assert.match(refused('s3://bucket/x?endpoint=ftp://h'), /endpoint must be an http\(s\) URL/);
    assert.match(refused('s3://bucket/x?force_path_style=maybe'), /force_path_style must be a boolean/);
    assert.match(refused('s3://bucket/x?acl=public'), /unknown parameter "acl"/);
    assert.match(refused('s3://bucket/%E0'), /malformed prefix/);
    const secret = refused('s3://AKIDEXAMPLE:wJalrXUtnFEMI@bucket/x');
    assert.match(secret, /must not hold credentials \(use AWS_ACCESS_KEY_ID\/AWS_SECRET_ACCESS_KEY\)/);
    assert.doesNotMatch(secret, /AKIDEXAMPLE|wJalrXUtnFEMI/);
    for (const message of [secret, refused('s3://a:b@bucket/x')]) assert.equal(message.split('\n').length, 2);
  });
});
