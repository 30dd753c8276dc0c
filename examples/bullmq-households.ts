/**
 * Batch work across machines on BullMQ: households go into a Redis-backed queue once, and any
 * number of worker processes, on any number of machines, create their groups with `createOnce`.
 * BullMQ retries a job whose worker died (a killed pod, a lost machine): the retry may find the
 * create already sent, half done, or never started. `createOnce` under `RedisCoordination` makes
 * that harmless: the retry waits for the dead worker's lease to lapse, then finds the group (or
 * creates it), so every household ends with exactly one group and one set of invitations.
 *
 *   npx tsx examples/bullmq-households.ts enqueue households.json   # once; again is harmless
 *   npx tsx examples/bullmq-households.ts work                      # on every machine
 *
 * `households.json` holds create bodies (`applicantGroups.create` bodies), each with its
 * `correlation_id`: the household's id in your system, also the job's id, so a household enqueued
 * twice is one job. Configuration from the environment: REDIS_URL, VERIFICATION_BASE_URL,
 * VERIFICATION_CLIENT_ID, VERIFICATION_SECRET_KEY; WORKER_CONCURRENCY (default 4). The fleet suite
 * runs it against the mock (`npm run test:fleet`), with BullMQ's stall timers shortened
 * through STALLED_INTERVAL_MS and LOCK_DURATION_MS (BullMQ's defaults: 30 s each).
 */
import { readFileSync } from 'node:fs';
import { type ApplicantGroupCreateParams, VerificationClient } from 'applicant-verification';
import { RedisCoordination, RedisTokenStore } from 'applicant-verification/redis';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';

const QUEUE = 'applicant-groups';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const [command, file] = process.argv.slice(2);

/** What a job returns: kept by BullMQ with the completed job. */
interface Created {
  groupId: string;
  created: boolean;
}

if (command === 'enqueue') {
  if (!file) throw new Error('usage: bullmq-households.ts enqueue <households.json>');
  const households = JSON.parse(readFileSync(file, 'utf8')) as ApplicantGroupCreateParams[];
  const connection = new Redis(redisUrl);
  const queue = new Queue<ApplicantGroupCreateParams, Created>(QUEUE, { connection });
  // The correlation id is the job id: BullMQ keeps one job per id, so a second enqueue adds nothing.
  await queue.addBulk(
    households.map((body) => ({
      name: 'create-group',
      data: body,
      opts: {
        jobId: body.correlation_id,
        attempts: 3,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: false,
      },
    })),
  );
  const counts = await queue.getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed');
  console.log(`enqueued: ${JSON.stringify(counts)}`);
  await queue.close();
  connection.disconnect();
} else if (command === 'work') {
  // One connection for the SDK's coordination and token (commands fail fast when Redis is down),
  // and BullMQ's own: a worker blocks on its connection and needs `maxRetriesPerRequest: null`.
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const coordination = new RedisCoordination(redis);
  // Credentials from VERIFICATION_CLIENT_ID and VERIFICATION_SECRET_KEY (both, as a pair).
  const client = new VerificationClient({
    coordination,
    tokenStore: new RedisTokenStore(redis),
    // A create's lease lasts twice its whole budget (deadline, grace window, one timeout): with
    // these, a job retried after its worker died takes the lease over within 22 s.
    timeout: 3_000,
    deadline: 5_000,
    createGraceWindow: 3_000,
    logLevel: 'warn',
  });
  const worker = new Worker<ApplicantGroupCreateParams, Created>(
    QUEUE,
    async (job) => {
      console.log(`started ${job.id} (attempt ${job.attemptsMade + 1})`);
      const { group, created } = await client.applicantGroups.createOnce(job.data);
      return { groupId: group.id, created };
    },
    {
      connection: new Redis(redisUrl, { maxRetriesPerRequest: null }),
      concurrency: Number(process.env.WORKER_CONCURRENCY ?? 4),
      ...(process.env.LOCK_DURATION_MS ? { lockDuration: Number(process.env.LOCK_DURATION_MS) } : {}),
      ...(process.env.STALLED_INTERVAL_MS
        ? { stalledInterval: Number(process.env.STALLED_INTERVAL_MS) }
        : {}),
    },
  );
  worker.on('completed', (job, result) => {
    console.log(`done ${job.id}: ${result.groupId} ${result.created ? 'created' : 'found'}`);
  });
  worker.on('failed', (job, error) => console.log(`failed ${job?.id}: ${error.name}: ${error.message}`));
  // Finish the jobs in hand on SIGTERM (a deploy), then close everything so the process exits.
  process.once('SIGTERM', async () => {
    await worker.close();
    await client.close();
    coordination.close();
    redis.disconnect();
  });
} else {
  throw new Error('usage: bullmq-households.ts enqueue <households.json> | work');
}
