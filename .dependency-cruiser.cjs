// dependency-cruiser's configuration: the rules are the server's walls (scripts/dependency-walls.cjs).
const { forbidden } = require('./scripts/dependency-walls.cjs');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    // Specs beside the code are not the application; server/test/ stays in, so an import of it is seen.
    exclude: { path: ['\\.spec\\.ts$', '^server/seed/demo/'] },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
