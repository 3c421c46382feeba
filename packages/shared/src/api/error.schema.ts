import { z } from 'zod';
import { type ApiError, ERROR_CODES } from '../errors';

export const apiErrorSchema = z.looseObject({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  fields: z.record(z.string(), z.array(z.string())).optional(),
  remaining_seconds: z.number().int().optional(),
});

// The schema and the hand-written interface must describe the same body.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesInterface: Same<z.infer<typeof apiErrorSchema>, ApiError> = true;
void schemaMatchesInterface;
