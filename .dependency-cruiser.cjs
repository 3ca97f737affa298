// dependency-cruiser's configuration: the rules are the server's walls (scripts/dependency-walls.cjs).
const { forbidden } = require('./scripts/dependency-walls.cjs');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden,
  options: {
    // A spec beside the code may import what it tests from anywhere: it is seen (so that production code
    // importing it is caught), its own imports are not followed. server/test/ is cruised like the rest:
    // the rules that concern it leave it out by path.
    doNotFollow: { path: ['node_modules', '\\.spec\\.ts$'] },
    exclude: { path: ['^server/seed/demo/'] },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
