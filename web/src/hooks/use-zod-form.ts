import { zodResolver } from '@hookform/resolvers/zod';
import { type FieldValues, type Resolver, type UseFormProps, useForm } from 'react-hook-form';
import type { z } from 'zod';

type UseZodFormOptions<Values extends FieldValues, Output> = Omit<UseFormProps<Values, unknown, Output>, 'resolver'> & {
  /** Usually a request schema of @radar/shared (packages/shared/src/api), so browser and server validate alike. */
  schema: z.ZodType<Output, FieldValues>;
};

/**
 * react-hook-form validated by a zod schema. `Values` are what the inputs hold (strings); `Output` is
 * what `handleSubmit` receives (the schema's output: trimmed, lower-cased e-mail etc.). The shared
 * request schemas accept `unknown` input (they must refuse anything a client sends), so their input
 * type says nothing about the form: the form's own `Values` type takes its place.
 *
 * Defaults: errors appear once a field was left (`onTouched`), then update as the user types; the
 * first failing rule of a field is its message (the schemas list each field's rules in the order to show).
 */
export function useZodForm<Values extends FieldValues, Output = Values>({
  schema,
  ...options
}: UseZodFormOptions<Values, Output>) {
  const resolver = zodResolver(schema) as unknown as Resolver<Values, unknown, Output>;
  return useForm<Values, unknown, Output>({ mode: 'onTouched', ...options, resolver });
}
