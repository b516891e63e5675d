// Convenience entry point: `import { startSimulator, buildTar } from '../simulator/index.js'`.
export * from './archives.js'
export * from './server.js'
