import { randomUUID } from 'node:crypto';
import { createInbox, type NatsConnection, type Subscription } from 'nats';
import type { Logger } from '@weft/platform';

/** What a gateway can be told to forget: remembered access grants, or remembered sessions and keys. */
export type Forgettable = 'access' | 'sessions';

/**
 * The gateways of one instance, so a change answered through one of them holds on every other one
 * before the answer leaves (issue 9): each gateway says hello on core NATS every `helloMs`, and
 * `forgetEverywhere` asks every gateway heard from in the last 30 s to drop what it remembers and waits for
 * each one's acknowledgement (at most `ackWaitMs`; a gateway that does not answer in time is cut off
 * from NATS or gone, and its remembered entries still end at their TTL).
 */
export interface GatewayPeers {
  /** Forgets here, then on every other live gateway; resolves once each has acknowledged or the wait ran out. */
  forgetEverywhere(what: Forgettable): Promise<void>;
  /** Ids of the other gateways heard from within `peerTtlMs`. */
  peers(): string[];
  close(): void;
}

export interface GatewayPeersOptions {
  nats: NatsConnection;
  instance: string;
  logger: Logger;
  /** Runs the forgetting on this gateway (on a request from any gateway, this one included). */
  forget: (what: Forgettable) => void;
  helloMs?: number;
  peerTtlMs?: number;
  ackWaitMs?: number;
  clock?: () => number;
}

const FORGETTABLE: ReadonlySet<string> = new Set<Forgettable>(['access', 'sessions']);

export function startGatewayPeers(opts: GatewayPeersOptions): GatewayPeers {
  const { nats, instance, logger } = opts;
  const helloMs = opts.helloMs ?? 2_000;
  // Generous: a gateway whose hellos run late (a busy process) must still be waited for, or a change
  // answered here may not hold there yet; waiting on one that has gone costs at most `ackWaitMs`.
  const peerTtlMs = opts.peerTtlMs ?? 15 * helloMs;
  // A live gateway that is busy may take a while to answer; a stopped one says goodbye and is not
  // waited for, so this long wait is only ever spent on a gateway that died without a word.
  const ackWaitMs = opts.ackWaitMs ?? 5_000;
  const clock = opts.clock ?? Date.now;
  const id = randomUUID();
  const helloSubject = `${instance}.gateway.hello`;
  const forgetSubject = `${instance}.gateway.forget`;
  const byeSubject = `${instance}.gateway.bye`;
  const lastHeard = new Map<string, number>();
  let closed = false;

  const hello = () => {
    if (!nats.isClosed()) nats.publish(helloSubject, id);
  };
  const hellos = nats.subscribe(helloSubject, {
    callback: (err, msg) => {
      if (err) return logger.warn({ err }, 'gateway hello subscription failed');
      const from = msg.string();
      if (from === id) return;
      // A gateway heard for the first time answers with its own hello, so both know each other at once.
      if (!lastHeard.has(from)) hello();
      lastHeard.set(from, clock());
    },
  });
  const forgets = nats.subscribe(forgetSubject, {
    callback: (err, msg) => {
      if (err) return logger.warn({ err }, 'gateway forget subscription failed');
      const what = msg.string();
      // Anything unknown (a newer gateway's kind) forgets everything rather than nothing.
      const kinds: Forgettable[] = FORGETTABLE.has(what) ? [what as Forgettable] : ['access', 'sessions'];
      for (const kind of kinds) opts.forget(kind);
      msg.respond(id);
    },
  });
  const byes = nats.subscribe(byeSubject, {
    callback: (err, msg) => {
      if (!err) lastHeard.delete(msg.string());
    },
  });
  hello();
  const timer = setInterval(hello, helloMs);
  timer.unref();

  function peers(): string[] {
    const since = clock() - peerTtlMs;
    for (const [peer, at] of lastHeard) if (at < since) lastHeard.delete(peer);
    return [...lastHeard.keys()];
  }

  return {
    peers,
    async forgetEverywhere(what) {
      opts.forget(what);
      const waiting = new Set(peers());
      if (waiting.size === 0) {
        nats.publish(forgetSubject, what);
        return;
      }
      const inbox = createInbox();
      let sub: Subscription | undefined;
      await new Promise<void>((resolve) => {
        const done = setTimeout(() => {
          logger.warn({ unanswered: [...waiting], what }, 'gateways did not acknowledge in time; their remembered entries end at their TTL');
          resolve();
        }, ackWaitMs);
        sub = nats.subscribe(inbox, {
          callback: (err, msg) => {
            if (err) return;
            waiting.delete(msg.string());
            if (waiting.size === 0) {
              clearTimeout(done);
              resolve();
            }
          },
        });
        nats.publish(forgetSubject, what, { reply: inbox });
      });
      sub?.unsubscribe();
    },
    close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      // The others stop counting on this gateway at once instead of waiting for its acknowledgement.
      if (!nats.isClosed()) nats.publish(byeSubject, id);
      hellos.unsubscribe();
      forgets.unsubscribe();
      byes.unsubscribe();
    },
  };
}
