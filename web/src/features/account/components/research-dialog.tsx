import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { LIMITS, researchDescriptionRequestSchema } from '@radar/shared';
import { Controller, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { useZodForm } from '@/hooks/use-zod-form';
import { type GenerationActivity, type GenerationStage, useResearchGeneration } from '../hooks/use-research-generation';
import { ACCOUNT_STRINGS } from '../strings';

const STRINGS = ACCOUNT_STRINGS.dialog;
const STAGES: readonly GenerationStage[] = ['input', 'analysing', 'success'];
const STAGE_LABELS: Record<GenerationStage, string> = { input: '粘贴主页文字', analysing: 'AI 分析', success: '完成' };

type DescriptionForm = { research_description: string };
type DescriptionRequest = z.output<typeof researchDescriptionRequestSchema>;

type ResearchDialogProps = {
  open: boolean;
  onClose: () => void;
  accountEmail: string;
  /** The text pasted last time (the profile's research_description), to start from. */
  initialDescription: string;
  onSaved: () => Promise<void>;
};

/**
 * The three-stage research-info dialog (spec sections 2 and 4): paste a homepage's text, the AI
 * analyses it, the result is saved. It cannot be closed while the analysis or the save runs.
 */
export function ResearchDialog({ open, onClose, accountEmail, initialDescription, onSaved }: ResearchDialogProps) {
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const generation = useResearchGeneration({ accountEmail, onSaved });
  const form = useZodForm<DescriptionForm, DescriptionRequest>({
    schema: researchDescriptionRequestSchema,
    defaultValues: { research_description: initialDescription },
  });
  const description = useWatch({ control: form.control, name: 'research_description' });
  const isBlank = description.trim() === '';
  const isTooLong = description.length > LIMITS.researchDescriptionMaxLength;

  const close = () => {
    if (generation.isBusy) return;
    if (generation.stage === 'success') generation.restart();
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      fullWidth
      maxWidth="sm"
      fullScreen={isPhone}
      aria-labelledby="research-dialog-title"
      data-testid="research-dialog"
      data-stage={generation.stage}
    >
      <DialogTitle id="research-dialog-title">{STRINGS.title}</DialogTitle>
      <DialogContent>
        <Stepper activeStep={STAGES.indexOf(generation.stage)} alternativeLabel sx={{ mb: 3 }}>
          {STAGES.map((stage) => (
            <Step key={stage} completed={STAGES.indexOf(stage) < STAGES.indexOf(generation.stage)}>
              <StepLabel>{STAGE_LABELS[stage]}</StepLabel>
            </Step>
          ))}
        </Stepper>

        {generation.stage === 'input' ? (
          <Box
            component="form"
            id="research-dialog-form"
            noValidate
            onSubmit={form.handleSubmit(({ research_description }) => generation.start(research_description))}
          >
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {STRINGS.instructions}
            </Typography>
            {generation.error ? (
              <Alert severity="error" sx={{ mb: 2 }} data-testid="research-dialog-error">
                {generation.error}
              </Alert>
            ) : null}
            <Controller
              control={form.control}
              name="research_description"
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  label={STRINGS.inputLabel}
                  placeholder={STRINGS.inputPlaceholder}
                  multiline
                  minRows={isPhone ? 10 : 8}
                  maxRows={16}
                  fullWidth
                  autoFocus
                  error={fieldState.invalid || isTooLong}
                  helperText={
                    <Box component="span" sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
                      <span>{fieldState.error?.message ?? (isTooLong ? STRINGS.tooLong : '')}</span>
                      <span data-testid="research-dialog-counter">{STRINGS.counter(description.length)}</span>
                    </Box>
                  }
                  slotProps={{ htmlInput: { 'data-testid': 'research-dialog-input' } }}
                />
              )}
            />
          </Box>
        ) : null}

        {generation.stage === 'analysing' ? (
          <AnalysingPanel taskId={generation.taskId} activity={generation.activity} />
        ) : null}

        {generation.stage === 'success' ? (
          <Box sx={{ textAlign: 'center', py: 3 }} role="status" data-testid="research-dialog-success">
            <CheckCircleRounded color="success" sx={{ fontSize: 56 }} aria-hidden />
            <Typography variant="h5" component="p" sx={{ mt: 1.5 }}>
              {STRINGS.successTitle}
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              {STRINGS.successBody}
            </Typography>
          </Box>
        ) : null}
      </DialogContent>

      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        {generation.stage === 'input' ? (
          <>
            <Button color="inherit" onClick={close} data-testid="research-dialog-cancel">
              {STRINGS.cancel}
            </Button>
            <Button
              type="submit"
              form="research-dialog-form"
              variant="contained"
              disabled={isBlank || isTooLong}
              data-testid="research-dialog-start"
            >
              {STRINGS.start}
            </Button>
          </>
        ) : null}
        {generation.stage === 'analysing' ? (
          <Button color="inherit" onClick={generation.restart} data-testid="research-dialog-restart">
            {STRINGS.restart}
          </Button>
        ) : null}
        {generation.stage === 'success' ? (
          <Button variant="contained" onClick={close} autoFocus data-testid="research-dialog-confirm">
            {STRINGS.confirm}
          </Button>
        ) : null}
      </DialogActions>
    </Dialog>
  );
}

function AnalysingPanel({ taskId, activity }: { taskId: string | null; activity: GenerationActivity }) {
  const detail =
    activity === 'submitting' ? STRINGS.submitting : activity === 'saving' ? STRINGS.saving : STRINGS.duration;
  return (
    <Box sx={{ textAlign: 'center', py: 3 }} data-testid="research-dialog-analysing">
      <CircularProgress aria-label={STRINGS.analysing} />
      <Box role="status" aria-live="polite">
        <Typography variant="h6" component="p" sx={{ mt: 2 }}>
          {STRINGS.analysing}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          {detail}
        </Typography>
      </Box>
      {taskId ? (
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{ display: 'block', mt: 2, fontFamily: 'monospace', overflowWrap: 'anywhere' }}
          data-testid="research-dialog-task-id"
        >
          {STRINGS.taskId(taskId)}
        </Typography>
      ) : null}
    </Box>
  );
}
