/**
 * `state show` and `state clear`: what the state folder holds (docs/cli.md, "The state command"),
 * and clearing it once nothing recorded there may still be in flight. Local only: no request is
 * sent, no credentials are read.
 */
import { join } from 'node:path';
import {
  clearCoordinationFolder,
  describeCoordinationFolder,
  type FolderReport,
  UNRESOLVED_RECHECK_MS,
} from '../../../internal.js';
import { EXIT_LOCKED, EXIT_OK, EXIT_STATE } from '../../errors.js';
import { expectPositionals, parseCommand } from '../../shared/args.js';
import { type CliIO, write } from '../../shared/io.js';
import { stateDirOf } from '../../shared/state-dir.js';
import { readManifest, removeManifest } from '../../shared/state-manifest.js';

/** Help of `state show` and `state clear`. */
export const STATE_HELP = `Usage: applicant-verification state show [--state-dir DIR]
       applicant-verification state clear [--state-dir DIR] [--force]

The state folder (--state-dir, else VERIFICATION_STATE_DIR, else $XDG_STATE_HOME/applicant-
verification, else ~/.local/state/applicant-verification) holds the create gate of this machine:
what each household's last create came to, and who holds a create right now. It is made for one
server: after the mock was reset, or with one client id used on sandbox and production, its
records name groups the server does not have, and groups create holds those households back.

  state show    prints the servers and client ids the folder was used with, the gate's households
                by outcome, leases held (process, host, until when), recent unresolved creates,
                damaged lines, and the journals of the runs that used it
  state clear   removes the gate's records and the folder's manifest (journals beside the CSV
                files are kept). Refused, with exit code 4 and nothing removed, while a lease is
                held by a process that may be running, or while an unresolved create is younger
                than ${UNRESOLVED_RECHECK_MS / 60_000} minutes (it may still reach the server); --force clears those
                unresolved records too, never a held lease

Exit codes: 0 done; 2 usage; 4 clear refused (something may be in flight); 6 the folder cannot be
read as it is.`;

const OPTIONS = {
  'state-dir': { type: 'string' },
  force: { type: 'boolean' },
} as const;

const iso = (at: number) => new Date(at).toISOString();

function heldLine(lease: FolderReport['held'][number]): string {
  const holder = lease.holder
    ? `process ${lease.holder.pid} on ${lease.holder.host}`
    : 'a holder not recorded';
  return `  household ${lease.key.slice(0, 12)}…: ${holder}, until ${iso(lease.expiresAt)}${lease.holderGone ? ' (that process is gone: the next run takes it over)' : ''}`;
}

/** Runs `state show` or `state clear` (`action`). */
export async function state(action: 'show' | 'clear', args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(args, OPTIONS);
  if (values.help) {
    await write(io.stdout, `${STATE_HELP}\n`);
    return EXIT_OK;
  }
  expectPositionals(positionals, []);
  const stateDir = stateDirOf(values['state-dir'], io);
  const gateDir = stateDir.coordinationPath;
  const manifest = await readManifest(stateDir.path);
  const report = await describeCoordinationFolder(gateDir, UNRESOLVED_RECHECK_MS);
  const inFlight = report.held.filter((lease) => !lease.holderGone);

  if (action === 'show') {
    const lines = [`State folder ${stateDir.path} (${stateDir.setBy})`];
    if (manifest === undefined)
      lines.push(`  state.json cannot be read: which servers it was used with is not known`);
    else if (manifest.uses.length === 0) lines.push('  used with: no run recorded');
    for (const use of manifest?.uses ?? [])
      lines.push(
        `  used with ${use.server}, client id ${use.clientId}: runs from ${use.firstRun} to ${use.lastRun}`,
      );
    const { created, unresolved, refused, none } = report.outcomes;
    lines.push(
      `Gate ${gateDir}: ${report.files} file(s), ${report.bytes} bytes, format ${report.version ?? 'not recorded'}`,
      `  households: ${created} created, ${unresolved} unresolved, ${refused} refused, ${none} with a lease and no outcome (${report.prunable} older than an hour, dropped at the next rewrite)`,
      `  leases held: ${report.held.length}`,
      ...report.held.map(heldLine),
      `  unresolved creates younger than ${UNRESOLVED_RECHECK_MS / 60_000} minutes: ${report.recentUnresolved.length}${report.recentUnresolved.length > 0 ? ` (the newest recorded ${iso(Math.max(...report.recentUnresolved.map((each) => each.recordedAt)))})` : ''}`,
    );
    if (report.earlierVersionFiles > 0)
      lines.push(`  ${report.earlierVersionFiles} file(s) of an earlier version, moved in by the next run`);
    for (const damage of report.damaged) lines.push(`  damaged: ${damage.file} line ${damage.line}`);
    lines.push(`Journals of the runs (kept by state clear): ${manifest?.journals.length ?? 0}`);
    for (const journal of manifest?.journals ?? []) lines.push(`  ${journal}`);
    await write(io.stdout, `${lines.join('\n')}\n`);
    return report.damaged.length > 0 ? EXIT_STATE : EXIT_OK;
  }

  const force = values.force ?? false;
  const refusal = (checked: FolderReport): string | undefined => {
    const held = checked.held.filter((lease) => !lease.holderGone);
    if (held.length > 0)
      return `${held.length} lease(s) are held by a process that may be running (a create may be on its way):\n${held.map(heldLine).join('\n')}\nWait for it to finish (or for the leases to lapse), then run state clear again.`;
    if (checked.recentUnresolved.length > 0 && !force) {
      const last = Math.max(...checked.recentUnresolved.map((each) => each.recordedAt));
      return `${checked.recentUnresolved.length} unresolved create(s) were recorded less than ${UNRESOLVED_RECHECK_MS / 60_000} minutes ago (the newest at ${iso(last)}): one may still reach the server, and clearing would let a rerun send it again. Run state clear again after ${iso(last + UNRESOLVED_RECHECK_MS)}, or pass --force if no run or script using this folder is working.`;
    }
    return undefined;
  };
  const early = refusal({ ...report, held: inFlight });
  if (early !== undefined) {
    await write(io.stderr, `applicant-verification state clear: nothing was removed: ${early}\n`);
    return EXIT_LOCKED;
  }
  const { cleared, report: checked } = await clearCoordinationFolder(
    gateDir,
    UNRESOLVED_RECHECK_MS,
    (latest) => refusal(latest) === undefined,
  );
  const late = refusal(checked);
  if (!cleared && late !== undefined) {
    await write(io.stderr, `applicant-verification state clear: nothing was removed: ${late}\n`);
    return EXIT_LOCKED;
  }
  await removeManifest(stateDir.path);
  const total = Object.values(checked.outcomes).reduce((sum, count) => sum + count, 0);
  await write(
    io.stdout,
    `Cleared ${stateDir.path}: ${total} household record(s) of the gate and the manifest removed (${join(stateDir.path, 'state.json')}); the journals beside the CSV files are kept.\n`,
  );
  return EXIT_OK;
}
