import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '@radar/shared/server';

/** At least 256 bits: 32 bytes of entropy, or a longer passphrase. */
const MIN_SECRET_LENGTH = 32;

function assertStrong(secret: string): void {
  const distinctCharacters = new Set(secret).size;
  if (secret.length < MIN_SECRET_LENGTH || distinctCharacters < 10) {
    throw new ConfigError(
      `JWT_SECRET is too weak: use at least ${MIN_SECRET_LENGTH} random characters (e.g. the output of: openssl rand -base64 48)`,
    );
  }
}

/**
 * The secret that signs login tokens. From JWT_SECRET when set; in embedded mode without one, a
 * random secret is generated once and kept in DATA_DIR so tokens survive restarts. A server on an
 * external database must be given one, so every instance behind a load balancer shares it.
 */
export async function resolveJwtSecret(options: {
  configured: string | undefined;
  embedded: boolean;
  dataDir: string;
}): Promise<string> {
  if (options.configured) {
    assertStrong(options.configured);
    return options.configured;
  }
  if (!options.embedded) {
    throw new ConfigError(
      'JWT_SECRET is required when DATABASE_URL is set: generate one with `openssl rand -base64 48` and put it in .env',
    );
  }
  const file = path.join(options.dataDir, 'jwt-secret');
  try {
    const stored = (await fs.readFile(file, 'utf8')).trim();
    assertStrong(stored);
    return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(48).toString('base64url');
  await fs.mkdir(options.dataDir, { recursive: true });
  await fs.writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' }).catch(async (error) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  });
  return (await fs.readFile(file, 'utf8')).trim();
}
