/**
 * The layers of src/ (README, "Contributing"), checked by `npm run lint:deps` in CI.
 *
 * Every rule is an "error": a violation fails CI.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'main-entry-loads-no-testing-or-cli',
      comment:
        'src/index.ts and src/edge.ts never reach the testing kit, the command line, the Redis or households entries, msw, ioredis, the CSV libraries or libphonenumber-js: importing the SDK must not load them (the households entry is a Node subpath of its own).',
      severity: 'error',
      from: { path: '^src/(index|edge)\\.ts$' },
      to: {
        path: [
          '^src/(testing|cli|redis|households)/',
          '(^|/)node_modules/(msw|ioredis|csv-parse|csv-stringify|libphonenumber-js)/',
        ],
        reachable: true,
      },
    },
    {
      name: 'undici-loads-with-the-first-client',
      comment:
        "Only src/core/transport/undici-modules.ts loads undici at run time: the modules of its Pool, Agent and errors, when the first client is built (docs/runtimes.md). An import of undici's index anywhere else in the library would load all of undici with the SDK. The testing kit and the CLI may import it.",
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/core/transport/undici-modules\\.ts$', '^src/(testing|cli)/'] },
      to: { path: '(^|/)node_modules/undici/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'zod-loads-on-first-need',
      comment:
        'The library reaches zod\'s code only through src/load/zod.ts, which imports src/load/zod-api.ts the first time a call needs it (docs/benchmarks.md, "Cold start, round 7"): a run-time import of zod anywhere else would load it with the SDK. Type-only imports are free. The entries that build schemas at import (src/schemas/with-zod.ts for applicant-verification/schemas, the households entry, the testing kit and the CLI) may import it.',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: ['^src/load/zod-api\\.ts$', '^src/schemas/with-zod\\.ts$', '^src/(testing|cli|households)/'],
      },
      to: { path: '(^|/)node_modules/zod/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'edge-entry-reaches-no-node-only-module',
      comment:
        'src/edge.ts (export conditions workerd, edge-light, worker) never reaches the files that load undici or Node built-ins: the Node client and connector, the undici transport and dispatchers, the file token store and file coordination, the Express and Fastify adapters, the testing kit, the CLI (reachability follows type-only imports too, so undici, whose types ClientOptions names, is left to the next rule). `npm run check:edge` proves the same on the bundle.',
      severity: 'error',
      from: { path: '^src/edge\\.ts$' },
      to: {
        path: [
          '^src/client/node-client\\.ts$',
          '^src/core/(transport/(node-connector|undici-modules|undici-transport|dispatcher|node-builtins)|token/file-token-store|coordination/(file-[a-z]+|command-line-state))\\.ts$',
          '^src/webhooks/adapters/(express|fastify)\\.ts$',
          '^src/(testing|cli|households)/',
        ],
        reachable: true,
      },
    },
    {
      name: 'portable-code-imports-no-node-or-undici',
      comment:
        'Everything the edge entry loads imports no Node built-in and no undici at run time (types are fine): Node-only facilities are reached through process.getBuiltinModule, and only the files named here load them.',
      severity: 'error',
      from: {
        path: '^src/(core|creates|webhooks|resources|schemas|helpers|client)/|^src/edge\\.ts$',
        pathNot: [
          '^src/client/node-client\\.ts$',
          '^src/core/(transport/(node-connector|undici-modules|undici-transport|dispatcher|node-builtins)|token/file-token-store|coordination/(file-[a-z]+|command-line-state))\\.ts$',
          '^src/webhooks/adapters/(express|fastify)\\.ts$',
        ],
      },
      to: {
        path: ['^(node:)?[a-z_/]+$', '(^|/)node_modules/undici/'],
        dependencyTypes: ['core', 'npm'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'schemas-import-no-core',
      comment:
        'src/schemas describes the wire and knows nothing of how it is sent (a dispatching schema exposes its pick under a Symbol.for key instead of importing the response checker).',
      severity: 'error',
      from: { path: '^src/schemas/' },
      to: { path: '^src/core/' },
    },
    {
      name: 'core-imports-no-domain',
      comment:
        'src/core is the generic HTTP machinery: it imports nothing above it (the creates layer, a resource, a schema, the client or an entry point) and no testing or CLI code. It knows nothing of groups: a create that may have reached the server is handed back (MayHaveReachedServerError) to src/creates, which builds the domain errors (GroupMayHaveBeenCreatedError).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: {
        path: [
          '^src/(creates|resources|schemas|testing|cli|households|redis|webhooks|client)/',
          '^src/(index|edge|portable|internal)\\.ts$',
        ],
      },
    },
    // The rooms of src/core (src/core/README.md): what each may import from the others. The files
    // at src/core's top (errors, options, clock, error-body) are used by every room.
    {
      name: 'core-transport-imports-no-other-room',
      comment:
        "src/core/transport moves bytes (connectors, transports, dispatchers, headers, the file links it may fetch, the runtime): it imports only the files at src/core's top (errors, options), never the token, coordination, observability, the call or its results.",
      severity: 'error',
      from: { path: '^src/core/transport/' },
      to: { path: '^src/core/(token|coordination|observability|call|results)/' },
    },
    {
      name: 'core-observability-imports-no-other-room',
      comment:
        "src/core/observability (tracing, the logger, redaction, inspect) is used by every room and uses none: only the files at src/core's top.",
      severity: 'error',
      from: { path: '^src/core/observability/' },
      to: { path: '^src/core/(transport|token|coordination|call|results)/' },
    },
    {
      name: 'core-token-imports-no-coordination-or-results',
      comment:
        "src/core/token (the access token, its exchange, stores and the client's secrets) sends its exchange as a call over the transport and logs through observability; a coordination serialises its exchange from outside (src/core/coordination), so it imports neither coordination nor the results of calls.",
      severity: 'error',
      from: { path: '^src/core/token/' },
      to: { path: '^src/core/(coordination|results)/' },
    },
    {
      name: 'core-coordination-imports-no-results',
      comment:
        'src/core/coordination (what processes share: leases, outcomes, pauses, token exchanges one at a time) is built on the token, the transport, observability and the call: it imports nothing of the results of calls.',
      severity: 'error',
      from: { path: '^src/core/coordination/' },
      to: { path: '^src/core/results/' },
    },
    {
      name: 'core-call-imports-no-coordination-or-results',
      comment:
        'src/core/call (one call: its descriptor, checks, retries, pacing, validation, HttpCore) is handed its coordination as options (src/core/options.ts names the interface), and what is built of many calls (src/core/results) is built on it: it imports neither.',
      severity: 'error',
      from: { path: '^src/core/call/' },
      to: { path: '^src/core/(coordination|results)/' },
    },
    {
      name: 'core-results-imports-call-and-observability-only',
      comment:
        "src/core/results (pages of a list, a batch's outcomes, the freshness of pre-signed links) is built on calls: it imports the call, observability and src/core's top, never the transport, token or coordination.",
      severity: 'error',
      from: { path: '^src/core/results/' },
      to: { path: '^src/core/(transport|token|coordination)/' },
    },
    // The rooms of src/testing (src/testing/README.md). The entry files at its top (index, msw, bin,
    // bin-main) and the server and controls rooms, which wire the mock together, may use every room.
    {
      name: 'testing-faults-imports-no-other-room',
      comment:
        'src/testing/faults (the fault queue and the request faults) is a leaf: no other room of the mock.',
      severity: 'error',
      from: { path: '^src/testing/faults/' },
      to: { path: '^src/testing/(server|controls|state|accounts|reports|webhooks|console)/' },
    },
    {
      name: 'testing-reports-imports-state-only',
      comment:
        "src/testing/reports (generated report data, screening reports, the PDF) reads the mock's state (clock, random, records) and nothing else of the mock.",
      severity: 'error',
      from: { path: '^src/testing/reports/' },
      to: { path: '^src/testing/(server|controls|accounts|webhooks|faults|console)/' },
    },
    {
      name: 'testing-accounts-imports-state-only',
      comment:
        'src/testing/accounts (the accounts one mock serves, their tokens) reads the clock and random of src/testing/state only.',
      severity: 'error',
      from: { path: '^src/testing/accounts/' },
      to: { path: '^src/testing/(server|controls|reports|webhooks|faults|console)/' },
    },
    {
      name: 'testing-webhooks-imports-server-and-faults-only',
      comment:
        "src/testing/webhooks (delivery, webhook faults and their control routes) uses the server's routing and responses and the fault queue, never the controls, accounts or reports.",
      severity: 'error',
      from: { path: '^src/testing/webhooks/' },
      to: { path: '^src/testing/(controls|accounts|reports|console)/' },
    },
    {
      name: 'testing-console-reads-through-the-controls',
      comment:
        "src/testing/console (the page for people at /__mock/console, its snapshot) reads the mock through its controls and records, and acts only through the control API's routes: it imports no accounts, reports or entry file of the mock, and only the server room imports it.",
      severity: 'error',
      from: { path: '^src/testing/console/' },
      to: { path: '^src/testing/(accounts|reports)/|^src/testing/[^/]+\\.ts$' },
    },
    {
      name: 'testing-console-imported-by-the-server-only',
      comment:
        'The console is wired in by the server room (api.ts serves its routes, server.ts names its address); no other room reaches it.',
      severity: 'error',
      from: { path: '^src/testing/(controls|state|accounts|reports|webhooks|faults)/' },
      to: { path: '^src/testing/console/' },
    },
    {
      name: 'testing-state-imports-no-controls-or-faults',
      comment:
        'src/testing/state (records, life cycle, queries, the clock, the outbox, stats) is what the controls read and the faults act on: it imports neither.',
      severity: 'error',
      from: { path: '^src/testing/state/' },
      to: { path: '^src/testing/(controls|faults|console)/' },
    },
    {
      name: 'creates-sit-between-core-and-resources',
      comment:
        'src/creates (recovery by lookup, createOnce, the create gate, conflicts, the group errors) is built on src/core, the schemas and the pure helpers: it imports no resource (the resources call it), no client or entry point, and no testing or CLI code.',
      severity: 'error',
      from: { path: '^src/creates/' },
      to: {
        path: [
          '^src/(resources|testing|cli|households|redis|webhooks|client)/',
          '^src/(index|edge|portable|internal)\\.ts$',
        ],
      },
    },
    {
      name: 'testing-imports-public-entries-only',
      comment:
        "src/testing imports the SDK as a user would: src/index.ts and src/schemas/index.ts (applicant-verification/schemas). The one exception is src/internal.ts: the library's helpers the kit shares with it (the path format of validation errors, the redaction, the month names) that the public entry does not export; it is no entry point.",
      severity: 'error',
      from: { path: '^src/testing/' },
      to: {
        path: '^src/',
        pathNot: ['^src/testing/', '^src/index\\.ts$', '^src/schemas/index\\.ts$', '^src/internal\\.ts$'],
      },
    },
    {
      name: 'cli-imports-public-entries-only',
      comment:
        "src/cli imports the SDK as a user would: src/index.ts, src/schemas/index.ts, src/households/index.ts, src/testing/index.ts and src/redis/index.ts (loaded only for --coordination redis://). The one exception is src/internal.ts: the library's helpers the CLI shares with it (the batch runner, the redaction, the wire body of a create) that the public entry does not export; it is no entry point.",
      severity: 'error',
      from: { path: '^src/cli/' },
      to: {
        path: '^src/',
        pathNot: [
          '^src/cli/',
          '^src/index\\.ts$',
          '^src/schemas/index\\.ts$',
          '^src/households/index\\.ts$',
          '^src/testing/index\\.ts$',
          '^src/redis/index\\.ts$',
          '^src/internal\\.ts$',
        ],
      },
    },
    {
      name: 'schemas-entry-loads-no-client',
      comment:
        'applicant-verification/schemas (src/schemas/index.ts) is for users who validate what they store: importing it loads zod, the schemas and the pure helpers they use (dates, money, states), never the client, its transport or the webhooks.',
      severity: 'error',
      from: { path: '^src/schemas/index\\.ts$' },
      to: {
        path: [
          '^src/(core|resources|webhooks|client|testing|cli|redis)/',
          '^src/(index|edge|portable|internal)\\.ts$',
        ],
        reachable: true,
      },
    },
    {
      name: 'only-testing-and-cli-import-internal',
      comment:
        'src/internal.ts gathers what the testing kit and the CLI need beyond the public entries; the library itself imports each helper from its own module, so no entry point reaches it.',
      severity: 'error',
      from: { pathNot: '^src/(testing|cli)/' },
      to: { path: '^src/internal\\.ts$' },
    },
    {
      name: 'households-imports-no-client-testing-or-cli',
      comment:
        'src/households (applicant-verification/households) turns CSV text into create bodies: it uses the schemas and core errors, never a client, an entry point, the testing kit, the CLI or the Redis entry.',
      severity: 'error',
      from: { path: '^src/households/' },
      to: { path: ['^src/(testing|cli|redis|resources|webhooks|client)/', '^src/[^/]+\\.ts$'] },
    },
    {
      name: 'redis-imports-core-only',
      comment:
        'src/redis (applicant-verification/redis) is built on the generic machinery of src/core alone: no resource, schema, client, entry point, testing kit or CLI.',
      severity: 'error',
      from: { path: '^src/redis/' },
      to: { path: '^src/', pathNot: ['^src/redis/', '^src/core/'] },
    },
    {
      name: 'no-circular',
      comment: 'An import cycle makes load order matter.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-undeclared-packages',
      comment: 'Every package src/ imports is declared in package.json.',
      severity: 'error',
      from: {},
      // npm-no-pkg also tags a declared package whose resolved file sits under a nested package.json
      // (msw/lib/core): only a package that is none of the declared kinds is undeclared.
      to: {
        dependencyTypes: ['npm-no-pkg', 'npm-unknown'],
        dependencyTypesNot: ['npm', 'npm-dev', 'npm-peer', 'npm-optional'],
      },
    },
    {
      name: 'runtime-imports-no-dev-dependency',
      comment:
        'Users do not have devDependencies. msw is the exception for src/testing: an optional peer (also a devDependency here).',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/testing/', '^src/cli/'] },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'cli-imports-no-dev-dependency',
      comment:
        'The same for src/cli, whose one exception is ioredis: an optional peer (also a devDependency here), imported only for --coordination redis://, with a message to install it when it is missing.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: {
        dependencyTypes: ['npm-dev'],
        dependencyTypesNot: ['type-only'],
        pathNot: '(^|/)node_modules/ioredis/',
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.cjs', '.mjs', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
