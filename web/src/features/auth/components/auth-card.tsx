import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import type { ReactNode } from 'react';

/** The panel every auth form sits on; narrow screens get the full width with less padding. */
export function AuthCard({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Card data-testid={testId}>
      <CardContent sx={{ p: { xs: 2.5, sm: 4 }, '&:last-child': { pb: { xs: 2.5, sm: 4 } } }}>{children}</CardContent>
    </Card>
  );
}
