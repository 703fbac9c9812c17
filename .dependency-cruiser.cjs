// The package rules of docs/architecture.md §11, checked by `npm test` (scripts/test.ts) and proven able to
// fail by scripts/dependencies.test.ts, which cruises scripts/fixtures/layering with these same rules.
const workspaces = '(shared|storage|sdk|frame-app|secure-site|api|devnet|examples)'
// Tests run against the real dev stand-ins (anvil chains, the mail sink): they may import devnet.
const tests = '(\\.test\\.tsx?|\\.testing\\.ts|/testing\\.ts|/testDapp\\.ts)$'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'by-package-name',
      comment: 'A workspace (or e2e/, bench/, scripts/) imports another workspace only by its package name (@doorway/…), never by a relative path.',
      severity: 'error',
      from: { path: '^([^/]+)/' },
      to: { path: `^${workspaces}/`, pathNot: '^$1/', dependencyTypesNot: ['aliased-workspace'] },
    },
    {
      name: 'servers-not-devnet',
      comment: 'The api and the secure-site never import devnet: devnet builds their configuration and passes it in.',
      severity: 'error',
      from: { path: '^(api|secure-site)/', pathNot: tests },
      to: { path: '^devnet/' },
    },
    {
      name: 'secure-site-alone',
      comment: 'The secure-site never imports the api or the frame-app.',
      severity: 'error',
      from: { path: '^secure-site/' },
      to: { path: '^(api|frame-app)/' },
    },
    {
      name: 'secure-site-halves',
      comment: "The secure-site's browser and server halves meet only in secure-site/common.",
      severity: 'error',
      from: { path: '^secure-site/src/', pathNot: tests },
      to: { path: '^secure-site/server/' },
    },
    {
      name: 'secure-site-halves-server',
      comment: "The secure-site's browser and server halves meet only in secure-site/common.",
      severity: 'error',
      from: { path: '^secure-site/server/', pathNot: tests },
      to: { path: '^secure-site/src/' },
    },
    {
      name: 'common-alone',
      comment: "secure-site/common is what both halves import, so it imports neither.",
      severity: 'error',
      from: { path: '^secure-site/common/' },
      to: { path: '^secure-site/(src|server)/' },
    },
    {
      name: 'frame-core-not-features',
      comment: "The frame's core publishes events; features subscribe where the app is wired. The core never imports a feature or a view.",
      severity: 'error',
      from: { path: '^frame-app/src/core/', pathNot: tests },
      to: { path: '^frame-app/src/(features|views)/' },
    },
    {
      name: 'shared-is-a-leaf',
      comment: 'shared is imported by every package and imports none of them.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: `^${workspaces}/`, pathNot: '^shared/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycle, except through type-only imports (erased at compile time) or a lazy import(): a lazy part may import the eager part that loads it.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only', 'dynamic-import'] } },
    },
    {
      name: 'resolvable',
      comment: 'Every import resolves.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '/dist/', '^scripts/fixtures/', '\\.d\\.ts$'] },
    includeOnly: { path: `^(${workspaces}|e2e|bench|scripts)/` },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'default'], extensions: ['.ts', '.tsx', '.js', '.json'] },
    combinedDependencies: true,
  },
}
