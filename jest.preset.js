/** Shared Jest settings: TypeScript through SWC (decorator metadata on), NestJS 12's ESM packages transformed to CommonJS. */
const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest', swcOptions] },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|file-type|strtok3|token-types|uint8array-extras|@tokenizer|load-esm|cookie)/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
};
