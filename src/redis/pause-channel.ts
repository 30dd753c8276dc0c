/**
 * The pause after a 429, shared through Redis pub/sub: each process keeps one subscriber
 * connection (opened with the first listener, closed with the last, so it never keeps a finished
 * script alive) and learns of every pause as it is published, with no round trip on its requests.
 * A process that subscribes, or reconnects, while a pause is in force reads it from its key.
 */
import type { Logger } from '../core/observability/log.js';
import { duplicateConnection, type RedisConnection, runCommand } from './connection.js';

type PauseListener = (untilEpochMs: number) => void;

interface Subscription {
  /** The key holding the pause in force, read on subscribe and after a reconnect. */
  key: string;
  listeners: Set<PauseListener>;
  /** Whether SUBSCRIBE has been answered. */
  subscribed: boolean;
}

/** Pause subscriptions over one subscriber connection, duplicated from the caller's. */
export class PauseChannel {
  readonly #redis: RedisConnection;
  readonly #timeoutMs: number;
  readonly #logger: Logger;
  readonly #subscriptions = new Map<string, Subscription>();
  #subscriber: RedisConnection | undefined;
  #warned = false;
  #awaitingReady = false;

  constructor(redis: RedisConnection, timeoutMs: number, logger: Logger) {
    this.#redis = redis;
    this.#timeoutMs = timeoutMs;
    this.#logger = logger;
  }

  /** Calls `listener` with every pause published on `channel`; returns the unsubscribe function. */
  listen(channel: string, key: string, listener: PauseListener): () => void {
    const subscription = this.#subscriptions.get(channel);
    if (subscription) {
      subscription.listeners.add(listener);
      if (subscription.subscribed) void this.#readCurrent(channel, new Set([listener]));
    } else {
      const created: Subscription = { key, listeners: new Set([listener]), subscribed: false };
      this.#subscriptions.set(channel, created);
      // The key is read once the subscription stands: a pause published before is in the key,
      // one published after arrives as a message, so none falls between the two.
      this.#subscriberConnection()
        .subscribe(channel)
        .then(() => {
          created.subscribed = true;
          return this.#readCurrent(channel, created.listeners);
        })
        .catch((error: unknown) => this.#warn(error));
    }
    return () => this.#forget(channel, listener);
  }

  /** Closes the subscriber connection; listeners hear nothing more. */
  close(): void {
    this.#subscriptions.clear();
    this.#closeSubscriber();
  }

  #subscriberConnection(): RedisConnection {
    if (this.#subscriber) return this.#subscriber;
    const subscriber = duplicateConnection(this.#redis);
    subscriber.on('message', (channel: string, message: string) => {
      const until = Number(message);
      const listeners = this.#subscriptions.get(channel)?.listeners;
      if (listeners && Number.isFinite(until)) this.#deliver(listeners, until);
    });
    subscriber.on('error', (error: unknown) => this.#warn(error));
    // A Cluster that loses every node only closes; a closed connection of ours is not an outage.
    subscriber.on('close', () => {
      if (this.#subscriber === subscriber) this.#warn(new Error('the connection closed'));
    });
    // After a reconnect the channels are subscribed again (by us, a Cluster by ioredis); pauses
    // published meanwhile are read from their keys once the subscription stands.
    subscriber.on('ready', () => {
      this.#warned = false;
      this.#resubscribe(subscriber)
        .then(() =>
          this.#whenReady(() => {
            for (const [channel, subscription] of this.#subscriptions) {
              void this.#readCurrent(channel, subscription.listeners);
            }
          }),
        )
        .catch((error: unknown) => {
          // A subscriber closed by `close` or the last unsubscribe is not an outage.
          if (this.#subscriber === subscriber) this.#warn(error);
        });
    });
    this.#subscriber = subscriber;
    return subscriber;
  }

  /**
   * Subscribes `subscriber` again to the channels whose SUBSCRIBE was answered before it
   * reconnected (one still unanswered is sent again by ioredis, to the handler `listen` gave it).
   * A Cluster's connection does this itself. The promise is always handled by the caller: a
   * connection closed before the answer rejects it, and that must reach no process-wide handler.
   */
  async #resubscribe(subscriber: RedisConnection): Promise<void> {
    if (subscriber.isCluster || this.#subscriber !== subscriber) return;
    const channels = [...this.#subscriptions]
      .filter(([, { subscribed }]) => subscribed)
      .map(([channel]) => channel);
    if (channels.length > 0) await subscriber.subscribe(...channels);
  }

  // The keys are read through the caller's connection, which may come back after the subscriber.
  #whenReady(read: () => void): void {
    if (this.#redis.status === 'ready') {
      read();
    } else if (!this.#awaitingReady) {
      this.#awaitingReady = true;
      this.#redis.once('ready', () => {
        this.#awaitingReady = false;
        if (this.#subscriber) read();
      });
    }
  }

  async #readCurrent(channel: string, listeners: Set<PauseListener>): Promise<void> {
    const key = this.#subscriptions.get(channel)?.key;
    if (key === undefined) return;
    try {
      const value = await runCommand(this.#redis, 'onPause', this.#timeoutMs, () => this.#redis.get(key));
      const until = Number(value);
      if (value !== null && Number.isFinite(until) && until > Date.now()) this.#deliver(listeners, until);
    } catch (error) {
      this.#warn(error);
    }
  }

  #deliver(listeners: Set<PauseListener>, until: number): void {
    for (const listener of [...listeners]) {
      try {
        listener(until);
      } catch (error) {
        this.#logger.error(`A pause listener threw: ${error instanceof Error ? error.message : 'unknown'}`);
      }
    }
  }

  #forget(channel: string, listener: PauseListener): void {
    const subscription = this.#subscriptions.get(channel);
    if (!subscription?.listeners.delete(listener) || subscription.listeners.size > 0) return;
    this.#subscriptions.delete(channel);
    if (this.#subscriptions.size === 0) {
      this.#closeSubscriber();
      return;
    }
    this.#subscriber?.unsubscribe(channel).catch((error: unknown) => this.#warn(error));
  }

  #closeSubscriber(): void {
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    subscriber?.disconnect();
  }

  // Once per outage: a dead Redis would otherwise log on every reconnect attempt.
  #warn(error: unknown): void {
    if (this.#warned) return;
    this.#warned = true;
    const reason = error instanceof Error ? error.message : 'unknown error';
    this.#logger.warn(
      `Redis pause channel unavailable (${reason}): pauses other processes publish are missed until it reconnects.`,
    );
  }
}
