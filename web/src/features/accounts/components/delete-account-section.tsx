import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { SectionCard } from '@/components/sections/section-card';
import { getErrorMessage } from '@/lib/api-client';
import { deleteMyAccount } from '../api/account-data';
import { CurrentPasswordField } from './current-password-field';

/**
 * "Delete account" on /my: a dialog that warns what goes and asks for the password again. On success
 * the page's owner logs out locally and shows the landing page with a message (`onDeleted`).
 */
export function DeleteAccountSection({ onDeleted }: { onDeleted: () => void }) {
  const [isOpen, setIsOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const close = () => {
    if (isBusy) return;
    setIsOpen(false);
    setPassword('');
    setError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setError('请输入密码');
      return;
    }
    setIsBusy(true);
    setError(null);
    try {
      await deleteMyAccount(password);
      onDeleted();
    } catch (failure) {
      setError(getErrorMessage(failure));
      setIsBusy(false);
    }
  };

  return (
    <SectionCard
      id="delete-account"
      icon={<DeleteForeverOutlined />}
      title="删除账户"
      actions={
        <Button variant="outlined" color="error" onClick={() => setIsOpen(true)}>
          删除账户
        </Button>
      }
    >
      <Typography variant="body2" color="text.secondary">
        永久删除你的账户和全部数据。删除后无法恢复，建议先下载你的数据。
      </Typography>
      <Dialog open={isOpen} onClose={close} fullWidth maxWidth="xs" aria-labelledby="delete-account-dialog-title">
        <form onSubmit={submit} noValidate>
          <DialogTitle id="delete-account-dialog-title">确认删除账户</DialogTitle>
          <DialogContent>
            <Alert severity="warning" sx={{ mb: 2 }}>
              此操作不可撤销：你的个人资料、研究方向、关键词、收藏、阅读记录和反馈将被永久删除。
            </Alert>
            <CurrentPasswordField
              value={password}
              onChange={setPassword}
              error={error ?? undefined}
              hint="请输入密码以确认删除"
              autoFocus
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={close} disabled={isBusy}>
              取消
            </Button>
            <Button type="submit" color="error" variant="contained" disabled={isBusy}>
              {isBusy ? '正在删除…' : '永久删除'}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </SectionCard>
  );
}
