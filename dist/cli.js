#!/usr/bin/env node
// The docs-admin CLI: `docs-admin --help` once installed, or `node dist/cli.js --help`.
import './cli/index.js'
