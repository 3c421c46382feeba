import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { type ContactRequest, contactRequestSchema, LIMITS } from '@radar/shared';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormTextField } from '@/components/form/form-text-field';
import { MutationForm } from '@/components/form/mutation-form';
import { SendFormFooter } from '@/components/form/send-form-footer';
import { TitleDescriptionFields } from '@/components/form/title-description-fields';
import { useZodForm } from '@/hooks/use-zod-form';
import { isApiError } from '@/lib/api-client';
import { setServerFieldErrors } from '@/lib/form-errors';
import { sendContactMessage } from '../api/send-contact-message';
import { CONTACT_STRINGS } from '../strings';

const STRINGS = CONTACT_STRINGS.form;

type ContactFormValues = { name: string; email: string; title: string; description: string; website: string };

/** What a failed send says: too many (with the wait), no answer at all, or the server's own text. */
function describeContactError(error: unknown): string {
  if (!isApiError(error)) return CONTACT_STRINGS.errors.failed;
  if (error.status === 429 && error.remainingSeconds !== undefined) {
    return CONTACT_STRINGS.errors.tooMany(Math.max(1, Math.ceil(error.remainingSeconds / 60)));
  }
  if (error.status === null && error.code !== 'ABORTED') return CONTACT_STRINGS.errors.network;
  // A 4xx carries the server's message about the input; anything else is a plain failure.
  return error.status !== null && error.status < 500 ? error.message : CONTACT_STRINGS.errors.failed;
}

/**
 * The contact form: works without a login. Validated with the server's schema (the reply address as
 * registration checks it, title and description as feedback does), so the browser shows the same texts.
 */
export function ContactForm({
  defaultEmail,
  onSent,
}: {
  defaultEmail: string;
  /** The reply address, and the server's message when it says more than that the message was sent. */
  onSent: (sent: { email: string; message: string | undefined }) => void;
}) {
  const form = useZodForm<ContactFormValues, ContactRequest>({
    schema: contactRequestSchema,
    defaultValues: { name: '', email: defaultEmail, title: '', description: '', website: '' },
    mode: 'onSubmit',
  });
  // The session may load after the form: fill the address in then, unless the visitor typed one.
  useEffect(() => {
    if (defaultEmail && !form.getValues('email')) form.setValue('email', defaultEmail);
  }, [defaultEmail, form]);
  const send = useMutation({
    mutationFn: (values: ContactRequest) =>
      sendContactMessage({
        name: values.name || undefined,
        email: values.email,
        title: values.title,
        description: values.description,
        website: values.website || undefined,
      }),
    onSuccess: (answer, values) => onSent({ email: values.email, message: serverMessage(answer) }),
    // The server's message goes under the field it is about; only other failures get the error line.
    onError: (error) => setErrorOnField(setServerFieldErrors(error, form.setError, ['name', 'email'])),
  });
  const [isErrorOnField, setErrorOnField] = useState(false);

  const { errors } = form.formState;
  // One message for both ('请填写标题和详细描述'), as on the feedback page.
  const textMessages = [...new Set([errors.title?.message, errors.description?.message])].filter(Boolean);

  return (
    <MutationForm form={form} onValues={send.mutate} spacing={2.5} label={STRINGS.title} testId="contact-form">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <FormTextField
          control={form.control}
          name="name"
          label={STRINGS.name}
          autoComplete="name"
          fullWidth
          slotProps={{ htmlInput: { maxLength: 50, 'data-testid': 'contact-name' } }}
        />
        <FormTextField
          control={form.control}
          name="email"
          type="email"
          label={STRINGS.email}
          placeholder={STRINGS.emailPlaceholder}
          autoComplete="email"
          required
          fullWidth
          slotProps={{ htmlInput: { maxLength: LIMITS.emailMaxLength, 'data-testid': 'contact-email' } }}
        />
      </Stack>

      <TitleDescriptionFields
        control={form.control}
        labels={{
          title: STRINGS.subject,
          titlePlaceholder: STRINGS.subjectPlaceholder,
          titleCounter: STRINGS.subjectCounter,
          description: STRINGS.description,
          descriptionPlaceholder: STRINGS.descriptionPlaceholder,
        }}
        testIdPrefix="contact"
        descriptionRows={{ min: 5, max: 14 }}
      />

      {/* Out of sight and out of the tab order: only a bot fills it in (the server then drops the message). */}
      <Box aria-hidden sx={{ position: 'absolute', left: '-10000px', width: '1px', height: '1px', overflow: 'hidden' }}>
        <label>
          {STRINGS.honeypot}
          <input {...form.register('website')} type="text" tabIndex={-1} autoComplete="off" />
        </label>
      </Box>

      <SendFormFooter
        validationMessages={textMessages}
        errorMessage={send.isError && !isErrorOnField ? describeContactError(send.error) : null}
        isPending={send.isPending}
        submitLabel={STRINGS.submit}
        testIdPrefix="contact"
      />
    </MutationForm>
  );
}

/**
 * The server's own words about what happened to the message (e.g. stored for the administrator when the
 * installation has no address to mail it to); none when it only repeats the panel's title or says nothing.
 */
function serverMessage(answer: unknown): string | undefined {
  const message = typeof answer === 'object' && answer !== null ? (answer as { message?: unknown }).message : undefined;
  if (typeof message !== 'string') return undefined;
  const trimmed = message.trim();
  return trimmed && trimmed !== CONTACT_STRINGS.thanks.title ? trimmed : undefined;
}
