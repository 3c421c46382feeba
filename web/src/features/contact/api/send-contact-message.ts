import { API_PATHS, type ContactResponse, type contactRequestSchema } from '@radar/shared';
import type { z } from 'zod';
import { api } from '@/lib/api-client';

export type ContactMessageBody = z.input<typeof contactRequestSchema>;

/** POST /api/contact/ (not in the spec): a message to the operators, without a login. */
export function sendContactMessage(body: ContactMessageBody): Promise<ContactResponse> {
  return api.post<ContactResponse>(API_PATHS.contact, body);
}
