import LockOutlined from '@mui/icons-material/LockOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { LabelledDialog } from '@/components/dialogs/labelled-dialog';

type NeedLoginDialogProps = {
  open: boolean;
  onCancel: () => void;
  onLogin: () => void;
};

/** Asked when an anonymous visitor opens a screen that needs an account. */
export function NeedLoginDialog({ open, onCancel, onLogin }: NeedLoginDialogProps) {
  return (
    <LabelledDialog id="need-login" open={open} onClose={onCancel} maxWidth="xs" testId="need-login-dialog">
      <DialogTitle id="need-login-title" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Box component="span" sx={{ display: 'inline-flex', color: 'primary.main' }}>
          <LockOutlined fontSize="small" />
        </Box>
        需要登录
      </DialogTitle>
      <DialogContent>
        <DialogContentText id="need-login-description">
          该功能需要登录后使用。登录后即可查看根据你的研究方向推荐的论文与新闻，并提交意见反馈。
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} color="inherit" data-testid="need-login-cancel">
          取消
        </Button>
        <Button onClick={onLogin} variant="contained" data-testid="need-login-confirm" autoFocus>
          去登录
        </Button>
      </DialogActions>
    </LabelledDialog>
  );
}
