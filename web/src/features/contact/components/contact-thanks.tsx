import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { CONTACT_STRINGS } from '../strings';

const STRINGS = CONTACT_STRINGS.thanks;

/** Shown in place of the form once the message was sent: where the answer will go, home, or write again. */
export function ContactThanks({
  email,
  message,
  onHome,
  onAgain,
}: {
  email: string;
  /** The server's message about what became of it, shown as it says. */
  message?: string | undefined;
  onHome: () => void;
  onAgain: () => void;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The form is gone: move focus to the message so keyboard and screen-reader users land on it.
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <Box data-testid="contact-thanks" sx={{ textAlign: 'center', py: { xs: 3, md: 4 } }}>
      <CheckCircleRounded color="success" sx={{ fontSize: 56 }} aria-hidden />
      <Typography ref={headingRef} tabIndex={-1} variant="h5" component="h2" sx={{ mt: 1.5, outline: 'none' }}>
        {STRINGS.title}
      </Typography>
      {message ? (
        <Typography sx={{ mt: 1, wordBreak: 'break-word' }} data-testid="contact-server-message">
          {message}
        </Typography>
      ) : null}
      <Typography color="text.secondary" sx={{ mt: 1, wordBreak: 'break-word' }}>
        {STRINGS.body(email)}
      </Typography>
      <Box
        sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, justifyContent: 'center', gap: 1.5, mt: 3 }}
      >
        <Button variant="outlined" onClick={onHome} data-testid="contact-home">
          {STRINGS.home}
        </Button>
        <Button variant="contained" onClick={onAgain} data-testid="contact-again">
          {STRINGS.again}
        </Button>
      </Box>
    </Box>
  );
}
