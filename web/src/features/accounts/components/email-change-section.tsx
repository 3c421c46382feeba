import AlternateEmailOutlined from '@mui/icons-material/AlternateEmailOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { emailChangeConfirmSchema, emailChangeRequestSchema } from '@radar/shared';
import { type FormEvent, useState } from 'react';
import { HintedTextField } from '@/components/form/hinted-text-field';
import { SectionCard } from '@/components/sections/section-card';
import { ApiError, getErrorMessage } from '@/lib/api-client';
import { replaceSessionEmail } from '@/lib/session';
import { confirmEmailChange, startEmailChange } from '../api/account-data';
import { CurrentPasswordField } from './current-password-field';

type Errors = { newEmail?: string; password?: string; code?: string; form?: string };

/** The first message of a field in the API's error body, when it names one. */
function fieldError(failure: unknown, field: string): string | undefined {
  return failure instanceof ApiError ? failure.fields?.[field]?.[0] : undefined;
}

/**
 * "更改邮箱" on /my: the new address and the current password, then the code mailed to the new address.
 * On success the page reloads the user (`onChanged`), so the account section shows the new address.
 */
export function EmailChangeSection({
  currentEmail,
  onChanged,
  onNotify,
}: {
  currentEmail: string;
  onChanged: () => Promise<void>;
  onNotify: (message: string) => void;
}) {
  const [step, setStep] = useState<'idle' | 'request' | 'code'>('idle');
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [isBusy, setIsBusy] = useState(false);

  const reset = () => {
    setStep('idle');
    setNewEmail('');
    setPassword('');
    setCode('');
    setErrors({});
  };

  const request = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = emailChangeRequestSchema.safeParse({ new_email: newEmail, password });
    if (!parsed.success) {
      const fields = parsed.error.flatten().fieldErrors;
      setErrors({ newEmail: fields.new_email?.[0], password: fields.password?.[0] });
      return;
    }
    if (parsed.data.new_email === currentEmail.toLowerCase()) {
      setErrors({ newEmail: '新邮箱与当前邮箱相同' });
      return;
    }
    setIsBusy(true);
    setErrors({});
    try {
      const started = await startEmailChange(parsed.data.new_email, parsed.data.password);
      setSentTo(started.new_email);
      setPassword('');
      setStep('code');
    } catch (failure) {
      const newEmailError = fieldError(failure, 'new_email');
      const passwordError = fieldError(failure, 'password') ? getErrorMessage(failure) : undefined;
      setErrors(
        newEmailError || passwordError
          ? { newEmail: newEmailError, password: passwordError }
          : { form: getErrorMessage(failure) },
      );
    } finally {
      setIsBusy(false);
    }
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = emailChangeConfirmSchema.safeParse({ code });
    if (!parsed.success) {
      setErrors({ code: parsed.error.flatten().fieldErrors.code?.[0] });
      return;
    }
    setIsBusy(true);
    setErrors({});
    try {
      const user = await confirmEmailChange(parsed.data.code);
      // The old address is kept nowhere in this browser once it is no longer the account's.
      replaceSessionEmail(currentEmail, user.email);
      reset();
      onNotify(`邮箱已更改为 ${user.email}`);
      await onChanged();
    } catch (failure) {
      setErrors({ code: getErrorMessage(failure) });
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <SectionCard
      id="email-change"
      icon={<AlternateEmailOutlined />}
      title="更改邮箱"
      actions={
        step === 'idle' ? (
          <Button variant="outlined" onClick={() => setStep('request')}>
            更改邮箱
          </Button>
        ) : undefined
      }
    >
      {step === 'idle' ? (
        <Typography variant="body2" color="text.secondary">
          更改用于登录和接收通知的邮箱。新邮箱需要通过验证码验证，原邮箱会收到更改通知。
        </Typography>
      ) : null}
      {step === 'request' ? (
        <form onSubmit={request} noValidate>
          <Stack spacing={2}>
            {errors.form ? <Alert severity="error">{errors.form}</Alert> : null}
            <HintedTextField
              type="email"
              label="新邮箱"
              autoComplete="email"
              value={newEmail}
              onChange={setNewEmail}
              error={errors.newEmail}
              hint="我们会向新邮箱发送 6 位验证码"
              autoFocus
            />
            <CurrentPasswordField
              value={password}
              onChange={setPassword}
              error={errors.password}
              hint="为保护账户安全，请输入当前密码"
            />
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
              <Button onClick={reset} disabled={isBusy}>
                取消
              </Button>
              <Button type="submit" variant="contained" disabled={isBusy}>
                {isBusy ? '正在发送…' : '发送验证码'}
              </Button>
            </Stack>
          </Stack>
        </form>
      ) : null}
      {step === 'code' ? (
        <form onSubmit={confirm} noValidate>
          <Stack spacing={2}>
            <Alert severity="info">验证码已发送至 {sentTo}，5 分钟内有效。</Alert>
            <HintedTextField
              label="验证码"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={setCode}
              error={errors.code}
              hint="请输入新邮箱收到的 6 位验证码"
              slotProps={{ htmlInput: { maxLength: 6 } }}
              autoFocus
            />
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
              <Button onClick={reset} disabled={isBusy}>
                取消
              </Button>
              <Button onClick={() => setStep('request')} disabled={isBusy}>
                重新发送
              </Button>
              <Button type="submit" variant="contained" disabled={isBusy}>
                {isBusy ? '正在验证…' : '确认更改'}
              </Button>
            </Stack>
          </Stack>
        </form>
      ) : null}
    </SectionCard>
  );
}
