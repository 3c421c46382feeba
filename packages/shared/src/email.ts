/**
 * The grammar browsers apply to `<input type="email">` (WHATWG), plus a dot in the domain: what mail
 * servers accept in practice. Deliverability itself is proven by the code.
 */
export const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
