/**
 * A script of the kind docs/cli.md describes, joining the command line's gate: a client with
 * `FileCoordination('<state dir>/coordination')` and the same client id (both from the
 * environment: `VERIFICATION_*`, and CREATE_ONCE, JSON, see {@link ScriptConfig}) calls
 * `createOnce` for each household and prints one JSON line, {@link ScriptReport}. The seams suite
 * runs it bundled (test/support/bundle.ts) beside a `groups create` run on the same households.
 */
import { join } from 'node:path';
import { type ApplicantGroupCreateParams, FileCoordination, VerificationClient } from '../../src/index.js';

/** What the test hands the script. */
export interface ScriptConfig {
  stateDir: string;
  bodies: ApplicantGroupCreateParams[];
  concurrency: number;
}

/** What the script prints: each household's group and whether this script created it. */
export interface ScriptReport {
  results: Array<{ correlationId: string; groupId?: string; created?: boolean; error?: string }>;
}

const config = JSON.parse(process.env.CREATE_ONCE ?? '') as ScriptConfig;
const client = new VerificationClient({
  coordination: new FileCoordination(join(config.stateDir, 'coordination')),
});
// createMany with once: each household through createOnce, settling with { group, created }.
const settled = await client.applicantGroups.createMany(config.bodies, {
  once: true,
  concurrency: config.concurrency,
});
await client.close();
const report: ScriptReport = {
  results: settled.map((outcome, index) => {
    const correlationId = config.bodies[index]?.correlation_id ?? '';
    return outcome.ok
      ? { correlationId, groupId: outcome.value.group.id, created: outcome.value.created }
      : {
          correlationId,
          error:
            outcome.error instanceof Error ? `${outcome.error.name}: ${outcome.error.message}` : 'unknown',
        };
  }),
};
process.stdout.write(`${JSON.stringify(report)}\n`);
