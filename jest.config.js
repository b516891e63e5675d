// Jest runs the ESM sources directly: @swc/jest strips the types, the mapper drops the `.js`
// suffixes that NodeNext imports carry.
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } }]
  },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 20000,
  // The tests mostly wait on sockets, child processes and timers: a worker per core, not one less.
  maxWorkers: '100%'
}
