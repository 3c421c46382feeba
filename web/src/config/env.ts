/**
 * Build-time settings of this installation (Vite inlines `VITE_*` variables when `web/` is built).
 * Nothing here is secret: everything ends up in the public bundle.
 */
export const env = {
  /** Address shown on the contact page; empty when the operator has not configured one. */
  supportEmail: readOptional(import.meta.env.VITE_SUPPORT_EMAIL),
} as const;

function readOptional(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}
