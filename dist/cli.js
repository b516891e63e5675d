#!/usr/bin/env node
// The docs-admin CLI: `npx docs-admin-action --help`, or `node dist/cli.js --help`.
import './cli/index.js'
