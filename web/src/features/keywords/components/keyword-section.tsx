import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import type { ReactNode } from 'react';
import { SectionTitle } from '@/components/sections/section-card';

type KeywordSectionProps = {
  /** Used for the heading's id, so the section is labelled by it. */
  id: string;
  title: string;
  description?: string;
  /** Shown at the end of the heading row (e.g. a count). */
  aside?: ReactNode;
  children: ReactNode;
};

/** One card of the keyword screen: heading, optional description, content. */
export function KeywordSection({ id, title, description, aside, children }: KeywordSectionProps) {
  const headingId = `${id}-heading`;
  return (
    <Card component="section" aria-labelledby={headingId} data-testid={`${id}-section`}>
      <CardContent sx={{ p: { xs: 2.5, md: 3 } }}>
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'baseline',
            justifyContent: 'space-between',
            gap: 1,
            mb: 2,
          }}
        >
          <SectionTitle headingId={headingId} title={title} description={description} />
          {aside}
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}
