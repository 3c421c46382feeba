import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { FEEDBACK_TYPE_LABELS, FEEDBACK_TYPES, type FeedbackType, feedbackRequestSchema } from '@radar/shared';
import { useMutation } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { SentPanel } from '@/components/feedback/sent-panel';
import { MutationForm } from '@/components/form/mutation-form';
import { SendFormFooter } from '@/components/form/send-form-footer';
import { TitleDescriptionFields } from '@/components/form/title-description-fields';
import { Page } from '@/components/page/page';
import { paths } from '@/config/paths';
import { useZodForm } from '@/hooks/use-zod-form';
import { sendFeedback } from '../api/send-feedback';
import { UserInfoBox } from '../components/user-info-box';
import { FEEDBACK_STRINGS as STRINGS } from '../strings';
import { buildFeedbackUserInfo, describeFeedbackError } from '../utils/feedback-payload';

// Title and description with the server's rules: trimmed, required ('请填写标题和详细描述'), bounded.
const feedbackFormSchema = z.object({
  type: z.enum(FEEDBACK_TYPES),
  title: feedbackRequestSchema.shape.title,
  description: feedbackRequestSchema.shape.description,
});
type FeedbackForm = { type: FeedbackType; title: string; description: string };
type FeedbackValues = z.output<typeof feedbackFormSchema>;

const EMPTY_FORM: FeedbackForm = { type: 'bug', title: '', description: '' };

type FeedbackPageProps = {
  /** The signed-in account; null reports the sender as not logged in. */
  account: { email: string; id: string } | null;
};

/** /feedback. Guarded; app/routes/feedback.tsx passes the account in. */
export function FeedbackPage({ account }: FeedbackPageProps) {
  const navigate = useNavigate();
  const location = useLocation();
  // Checked on submit, then as the user corrects it (one message for both fields).
  const form = useZodForm<FeedbackForm, FeedbackValues>({
    schema: feedbackFormSchema,
    defaultValues: EMPTY_FORM,
    mode: 'onSubmit',
  });
  const send = useMutation({
    mutationFn: (values: FeedbackValues) =>
      sendFeedback({
        type: FEEDBACK_TYPE_LABELS[values.type],
        title: values.title,
        description: values.description,
        userInfo: buildFeedbackUserInfo({
          account,
          userAgent: navigator.userAgent,
          currentPage: window.location.href,
          now: new Date(),
        }),
      }),
  });

  const { errors } = form.formState;
  const validationMessages = [...new Set([errors.title?.message, errors.description?.message])].filter(Boolean);

  // Back where the user came from; a page opened directly has no history entry of the app to go back to.
  const goBack = () => (location.key === 'default' ? navigate(paths.home.getHref()) : navigate(-1));
  const startOver = () => {
    form.reset(EMPTY_FORM);
    send.reset();
  };

  if (send.isSuccess) {
    return (
      <Page title={STRINGS.pageTitle} maxWidth="md">
        <SentPanel
          variant="card"
          testIdPrefix="feedback"
          title={STRINGS.thanks.title}
          body={STRINGS.thanks.body}
          labels={STRINGS.thanks}
          onHome={() => navigate(paths.home.getHref())}
          onAgain={startOver}
        />
      </Page>
    );
  }

  return (
    <Page title={STRINGS.pageTitle} subtitle={STRINGS.pageSubtitle} maxWidth="md">
      <Card>
        <CardContent sx={{ p: { xs: 2.5, md: 4 } }}>
          <MutationForm form={form} onValues={send.mutate} spacing={3} label={STRINGS.pageTitle} testId="feedback-form">
            <Controller
              control={form.control}
              name="type"
              render={({ field }) => (
                <FormControl component="fieldset">
                  <FormLabel component="legend" id="feedback-type-label" sx={{ mb: 0.5 }}>
                    {STRINGS.type}
                  </FormLabel>
                  <RadioGroup {...field} row aria-labelledby="feedback-type-label">
                    {FEEDBACK_TYPES.map((type) => (
                      <FormControlLabel
                        key={type}
                        value={type}
                        control={<Radio />}
                        label={FEEDBACK_TYPE_LABELS[type]}
                        data-testid={`feedback-type-${type}`}
                      />
                    ))}
                  </RadioGroup>
                </FormControl>
              )}
            />

            <TitleDescriptionFields
              control={form.control}
              labels={STRINGS}
              testIdPrefix="feedback"
              descriptionRows={{ min: 6, max: 16 }}
            />

            <UserInfoBox account={account} userAgent={navigator.userAgent} currentPage={window.location.href} />

            <SendFormFooter
              validationMessages={validationMessages}
              errorMessage={send.isError ? describeFeedbackError(send.error) : null}
              isPending={send.isPending}
              submitLabel={STRINGS.submit}
              cancel={{ label: STRINGS.cancel, onClick: goBack }}
              testIdPrefix="feedback"
            />
          </MutationForm>
        </CardContent>
      </Card>
    </Page>
  );
}
