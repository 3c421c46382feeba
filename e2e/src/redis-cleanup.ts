import net from 'node:net';
import tls from 'node:tls';

/** Deletes every key matching ARGV[1] inside Redis, in one round trip; returns how many went. */
const PURGE_SCRIPT = `
local cursor = '0'
local deleted = 0
repeat
  local result = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 1000)
  cursor = result[1]
  for _, key in ipairs(result[2]) do deleted = deleted + redis.call('DEL', key) end
until cursor == '0'
return deleted`;

const encodeCommand = (args: string[]) =>
  `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;

/**
 * Removes the queue keys one test server left in a shared Redis (`<prefix>:*`): its worker registers
 * a job scheduler there, and the prefix is unique per server, so nothing else would ever clean them.
 * A few lines of RESP over a socket, because e2e has no Redis client of its own. Every command used
 * answers on one line (+OK, :n or -ERR), which keeps the reader trivial.
 */
export async function purgeRedisPrefix(redisUrl: string, prefix: string, timeoutMs = 5_000): Promise<number> {
  if (!/^[\w-]+$/.test(prefix)) throw new Error(`refusing to purge Redis keys for the prefix "${prefix}"`);
  const url = new URL(redisUrl);
  const commands: string[][] = [];
  if (url.password) {
    const password = decodeURIComponent(url.password);
    commands.push(url.username ? ['AUTH', decodeURIComponent(url.username), password] : ['AUTH', password]);
  }
  const db = url.pathname.replace(/^\//, '');
  if (db) commands.push(['SELECT', db]);
  commands.push(['EVAL', PURGE_SCRIPT, '0', `${prefix}:*`]);

  const port = Number(url.port || 6379);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const socket =
    url.protocol === 'rediss:' ? tls.connect({ host, port, servername: host }) : net.connect({ host, port });

  return new Promise<number>((resolve, reject) => {
    let buffer = '';
    const replies: string[] = [];
    const finish = (error: Error | undefined, deleted = 0) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(deleted);
    };
    const timer = setTimeout(() => finish(new Error(`Redis purge of ${prefix}:* timed out`)), timeoutMs);
    socket.setEncoding('utf8');
    socket.once('error', (error) => finish(error));
    socket.once(url.protocol === 'rediss:' ? 'secureConnect' : 'connect', () => {
      socket.write(commands.map(encodeCommand).join(''));
    });
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let end = buffer.indexOf('\r\n');
      while (end !== -1) {
        replies.push(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\r\n');
      }
      const failed = replies.find((reply) => reply.startsWith('-'));
      if (failed) return finish(new Error(`Redis refused the purge of ${prefix}:*: ${failed.slice(1)}`));
      const last = replies[commands.length - 1];
      if (last !== undefined) finish(undefined, Number(last.slice(1)));
    });
  });
}
