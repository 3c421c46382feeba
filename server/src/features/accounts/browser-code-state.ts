import { emailFingerprint } from '../../security/secret-codes';

/** The cookie that carries one browser's view of the codes it asked for (signed: security/signed-cookies.ts). */
export const VERIFY_COOKIE = 'radar_verify';
export const VERIFY_COOKIE_PATH = '/api/auth/';
/** Long enough for the daily cap on codes (one day of sends) to be answered from it. */
export const VERIFY_COOKIE_MAX_AGE_S = 24 * 60 * 60;
const MAX_SENDS = 20;

/**
 * What one browser did for one address: when it had codes sent (register, resend), its wrong codes
 * since the last send, and its lock. Verification-status, resend and verify-email answer from this
 * and from nothing else the caller did not do, so every address looks the same to anyone who did not
 * register it: a pending registration, an unknown address and a verified account all answer alike.
 * The codes' real state (expiry, 5 attempts, 1 h lock, cooldown and caps per address) is still kept
 * and enforced in the database; only a correct code reveals it, and only to the mailbox owner.
 */
export class BrowserCodeState {
  private constructor(
    /** Send times (ms), oldest first. */
    public sends: number[],
    public failures: number,
    /** 0 when not locked. */
    public lockedUntil: number,
    /** Whether the route must write the cookie back. */
    public changed = false,
  ) {}

  static empty(): BrowserCodeState {
    return new BrowserCodeState([], 0, 0);
  }

  /**
   * `<address fingerprint>:<send times, s, base 36, joined by _>:<failures>:<locked until, s>`; a
   * value for another address (or none) is an empty state.
   */
  static decode(value: string | undefined, email: string): BrowserCodeState {
    const [fingerprint, sends, failures, locked] = value?.split(':') ?? [];
    if (fingerprint !== emailFingerprint(email) || sends === undefined || !failures || !locked) {
      return BrowserCodeState.empty();
    }
    const times = sends
      .split('_')
      .filter(Boolean)
      .map((time) => Number.parseInt(time, 36) * 1000);
    if (times.some((time) => !Number.isFinite(time))) return BrowserCodeState.empty();
    return new BrowserCodeState(times, Number(failures) || 0, Number.parseInt(locked, 36) * 1000 || 0);
  }

  encode(email: string): string {
    const seconds = (ms: number) => Math.floor(ms / 1000).toString(36);
    return [
      emailFingerprint(email),
      this.sends.map(seconds).join('_'),
      String(this.failures),
      seconds(this.lockedUntil),
    ].join(':');
  }

  lastSend(): number | undefined {
    return this.sends.at(-1);
  }

  isLocked(now: Date): boolean {
    return this.lockedUntil > now.getTime();
  }

  /** A code was sent to this browser's address: a fresh set of attempts, as the code itself has. */
  recordSend(now: Date, dayMs: number): void {
    this.sends = [...this.sends.filter((time) => time > now.getTime() - dayMs), now.getTime()].slice(-MAX_SENDS);
    this.failures = 0;
    this.lockedUntil = 0;
    this.changed = true;
  }

  /** A wrong code; returns the attempts left (0: locked until `lockUntil`). */
  recordFailure(maxAttempts: number, lockUntil: Date): number {
    this.failures += 1;
    if (this.failures >= maxAttempts) this.lockedUntil = lockUntil.getTime();
    this.changed = true;
    return Math.max(0, maxAttempts - this.failures);
  }
}
