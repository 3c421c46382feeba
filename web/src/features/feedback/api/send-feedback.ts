import { API_PATHS, type FeedbackResponse, type feedbackRequestSchema } from '@radar/shared';
import type { z } from 'zod';
import { api } from '@/lib/api-client';

/** The body as sent: `type` is the Chinese label of the chosen type. */
export type SendFeedbackBody = z.input<typeof feedbackRequestSchema>;

/** POST /api/feedback/send/. */
export function sendFeedback(body: SendFeedbackBody): Promise<FeedbackResponse> {
  return api.post<FeedbackResponse>(API_PATHS.feedback, body);
}
