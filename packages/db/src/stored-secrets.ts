import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** What marks a sealed value; anything else is a value stored in clear before sealing began. */
const SEALED_PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Credentials the product must use in clear later (a group robot's webhook address, whose key is the
 * credential, and its signing secret) sealed at rest with AES-256-GCM, so a copy of the database (a
 * dump, a backup, a read-only SQL injection) does not hand them out. The key is derived with HKDF from
 * the server's secret (JWT_SECRET; generated into DATA_DIR in embedded mode), the way the mail links'
 * and codes' keys are, and never stored. It does not protect against someone who has the server's
 * secret too: the server has to send with them.
 *
 * Each value is bound to where it is stored (`context`, e.g. the column and the reader's id) as
 * associated data, so a sealed value copied into another reader's row does not open there.
 */
export class StoredSecrets {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', serverSecret, 'radar', 'stored delivery secrets', 32));
  }

  /** `enc:v1:` + base64url(iv | tag | ciphertext); a fresh random IV each time. */
  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${SEALED_PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /**
   * The clear value of a stored one. A value without the prefix was stored in clear before sealing
   * began and is returned as it is (rows are sealed when next read or saved). Undefined when a sealed
   * value does not open: another server secret sealed it (JWT_SECRET changed), or it was altered.
   */
  open(stored: string, context: string): string | undefined {
    if (!isSealed(stored)) return stored;
    const raw = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}

/** Whether a stored value is sealed (else it is a value stored in clear before sealing began). */
export const isSealed = (stored: string) => stored.startsWith(SEALED_PREFIX);
