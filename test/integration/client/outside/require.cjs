// The CommonJS build from the same tarball: require() works, and errors are the same QuireError.
const { Quire, QuireError } = require('@quire/client');

const quire = new Quire({ baseUrl: process.env.QUIRE_BASE, apiKey: 'qk_test_wrong' });
quire.account.me().then(
  () => process.exit(1),
  (error) =>
    process.stdout.write(
      `${JSON.stringify({ quireError: error instanceof QuireError, code: error.code })}\n`,
    ),
);
