import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';

type SentPanelProps = {
  title: string;
  body: string;
  /** The server's message about what became of it, shown as it says. */
  message?: string | undefined;
  labels: { home: string; again: string };
  onHome: () => void;
  onAgain: () => void;
  /** 'feedback' or 'contact': `-thanks`, `-server-message`, `-home`, `-again`. */
  testIdPrefix: string;
  /** 'card': a card of its own (/feedback); 'inline': inside the page's card (/contact). */
  variant: 'card' | 'inline';
};

/** Shown in place of a form once it was sent: thanks, what happens next, home, or write again. */
export function SentPanel({ title, body, message, labels, onHome, onAgain, testIdPrefix, variant }: SentPanelProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The form is gone: move focus to the message so keyboard and screen-reader users land on it.
  useEffect(() => headingRef.current?.focus(), []);
  const isCard = variant === 'card';

  const content = (
    <>
      <CheckCircleRounded color="success" sx={{ fontSize: isCard ? 64 : 56 }} aria-hidden />
      <Typography
        ref={headingRef}
        tabIndex={-1}
        variant={isCard ? 'h4' : 'h5'}
        component="h2"
        sx={{ mt: isCard ? 2 : 1.5, outline: 'none' }}
      >
        {title}
      </Typography>
      {message ? (
        <Typography sx={{ mt: 1, wordBreak: 'break-word' }} data-testid={`${testIdPrefix}-server-message`}>
          {message}
        </Typography>
      ) : null}
      <Typography color="text.secondary" sx={{ mt: isCard ? 1.5 : 1, wordBreak: 'break-word' }}>
        {body}
      </Typography>
      <Box
        sx={{
          display: 'flex',
          flexDirection: { xs: 'column', sm: 'row' },
          justifyContent: 'center',
          gap: 1.5,
          mt: isCard ? 4 : 3,
        }}
      >
        <Button variant="outlined" onClick={onHome} data-testid={`${testIdPrefix}-home`}>
          {labels.home}
        </Button>
        <Button variant="contained" onClick={onAgain} data-testid={`${testIdPrefix}-again`}>
          {labels.again}
        </Button>
      </Box>
    </>
  );

  return isCard ? (
    <Card data-testid={`${testIdPrefix}-thanks`}>
      <CardContent sx={{ textAlign: 'center', py: { xs: 5, md: 7 }, px: 3 }}>{content}</CardContent>
    </Card>
  ) : (
    <Box data-testid={`${testIdPrefix}-thanks`} sx={{ textAlign: 'center', py: { xs: 3, md: 4 } }}>
      {content}
    </Box>
  );
}
