import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { FEEDBACK_STRINGS } from '../strings';

const STRINGS = FEEDBACK_STRINGS.thanks;

/** Shown after feedback was sent: thanks, return home, or send more. */
export function ThanksPanel({ onHome, onAgain }: { onHome: () => void; onAgain: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The form is gone: move focus to the message so keyboard and screen-reader users land on it.
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <Card data-testid="feedback-thanks">
      <CardContent sx={{ textAlign: 'center', py: { xs: 5, md: 7 }, px: 3 }}>
        <CheckCircleRounded color="success" sx={{ fontSize: 64 }} aria-hidden />
        <Typography ref={headingRef} tabIndex={-1} variant="h4" component="h2" sx={{ mt: 2, outline: 'none' }}>
          {STRINGS.title}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1.5 }}>
          {STRINGS.body}
        </Typography>
        <Box
          sx={{
            display: 'flex',
            flexDirection: { xs: 'column', sm: 'row' },
            justifyContent: 'center',
            gap: 1.5,
            mt: 4,
          }}
        >
          <Button variant="outlined" onClick={onHome} data-testid="feedback-home">
            {STRINGS.home}
          </Button>
          <Button variant="contained" onClick={onAgain} data-testid="feedback-again">
            {STRINGS.again}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}
