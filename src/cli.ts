#!/usr/bin/env node
// Placeholder: replaced by the `check` / `routes` implementation.
console.error('express-endpoints: not implemented yet');
process.exitCode = 1;
