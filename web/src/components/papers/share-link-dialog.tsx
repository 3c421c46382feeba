import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';

const TEXT = {
  title: '分享论文',
  body: '复制下面的链接发送给他人：',
  link: '论文链接',
  copy: '复制链接',
  copied: '已复制',
  close: '关闭',
} as const;

type ShareLinkDialogProps = {
  /** The link to share; the dialog is open while it is set. */
  url: string | null;
  onClose: () => void;
};

/**
 * Shows a paper's link to copy by hand, for browsers that refuse clipboard access (an insecure origin,
 * a denied permission). The link is selected when the dialog opens.
 */
export function ShareLinkDialog({ url, onClose }: ShareLinkDialogProps) {
  const titleId = useId();
  const [isCopied, setIsCopied] = useState(false);

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setIsCopied(true);
    } catch {
      // Still refused: the selected text remains for Ctrl+C.
    }
  };

  return (
    <Dialog
      open={url !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      data-testid="share-dialog"
      slotProps={{ transition: { onExited: () => setIsCopied(false) } }}
    >
      <DialogTitle id={titleId}>{TEXT.title}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{TEXT.body}</DialogContentText>
        <TextField
          label={TEXT.link}
          value={url ?? ''}
          fullWidth
          autoFocus
          onFocus={(event) => event.target.select()}
          slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'share-dialog-url' } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{TEXT.close}</Button>
        <Button variant="contained" onClick={copy} data-testid="share-dialog-copy">
          {isCopied ? TEXT.copied : TEXT.copy}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
