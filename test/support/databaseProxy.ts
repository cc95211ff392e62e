import net from 'node:net';

/**
 * A TCP relay in front of PostgreSQL that a test cuts and mends, as a network would:
 * `cut` drops every connection and refuses new ones (a database gone, a firewall rejecting),
 * `partition` keeps every connection and accepts new ones but carries nothing either way
 * (packets lost: the peers hang), `restore` lets everything through again (a partition's
 * held bytes are then delivered, as TCP retransmits them).
 */
export interface DatabaseProxy {
  /** `databaseUrl` with its host and port replaced by the relay's. */
  url: string;
  cut(): Promise<void>;
  partition(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket | undefined;
}

export async function startDatabaseProxy(
  databaseUrl: string,
  port: number,
): Promise<DatabaseProxy> {
  const target = new URL(databaseUrl);
  const pairs = new Set<Pair>();
  let partitioned = false;

  const connectUpstream = (pair: Pair) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    pair.upstream = upstream;
    upstream.on('error', () => undefined);
    upstream.on('close', () => pair.client.destroy());
    flow(pair);
  };
  const flow = (pair: Pair) => {
    pair.client.pipe(pair.upstream!);
    pair.upstream!.pipe(pair.client);
  };
  const hold = (pair: Pair) => {
    pair.client.unpipe();
    pair.client.pause();
    if (pair.upstream) {
      pair.upstream.unpipe();
      pair.upstream.pause();
    }
  };

  const server = net.createServer((client) => {
    const pair: Pair = { client, upstream: undefined };
    pairs.add(pair);
    client.on('error', () => undefined);
    client.on('close', () => {
      pair.upstream?.destroy();
      pairs.delete(pair);
    });
    if (partitioned) client.pause();
    else connectUpstream(pair);
  });
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen();

  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
      await closed;
    },
    partition: () => {
      partitioned = true;
      for (const pair of pairs) hold(pair);
    },
    restore: async () => {
      if (partitioned) {
        partitioned = false;
        for (const pair of pairs) {
          if (pair.upstream) flow(pair);
          else connectUpstream(pair);
        }
      }
      if (!server.listening) await listen();
    },
    close: async () => {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
