import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

type SectionCardProps = {
  /** Used for the heading's id, so the section is labelled by it. */
  id: string;
  /** Without one the heading stands alone and the actions sit on its baseline (the keyword screen). */
  icon?: ReactNode;
  title: string;
  description?: string;
  /** Buttons at the end of the heading row (wrap below it on narrow screens). */
  actions?: ReactNode;
  children: ReactNode;
};

/** One section of the account and keyword screens: icon, heading, optional description and actions, then content. */
export function SectionCard({ id, icon, title, description, actions, children }: SectionCardProps) {
  const headingId = `${id}-heading`;
  return (
    <Card component="section" aria-labelledby={headingId} data-testid={`${id}-section`}>
      <CardContent sx={{ p: { xs: 2.5, md: 3 } }}>
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: icon ? 'center' : 'baseline',
            justifyContent: 'space-between',
            gap: 1.5,
            mb: 2.5,
          }}
        >
          {icon ? (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 0 }}>
              <IconTile size={40}>{icon}</IconTile>
              <SectionTitle headingId={headingId} title={title} description={description} />
            </Box>
          ) : (
            <SectionTitle headingId={headingId} title={title} description={description} />
          )}
          {actions ? <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>{actions}</Box> : null}
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}

/** An icon on a tinted square, before a section's heading. */
export function IconTile({ size, children }: { size: number; children: ReactNode }) {
  return (
    <Box
      aria-hidden
      sx={{
        display: 'grid',
        placeItems: 'center',
        flexShrink: 0,
        width: size,
        height: size,
        borderRadius: 2,
        color: 'primary.main',
        bgcolor: (theme) => alpha(theme.palette.primary.main, 0.1),
      }}
    >
      {children}
    </Box>
  );
}

/** A section's heading (its id labels the section) and the line under it. */
function SectionTitle({
  headingId,
  title,
  description,
}: {
  headingId: string;
  title: string;
  description?: string | undefined;
}) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography id={headingId} variant="h5" component="h2">
        {title}
      </Typography>
      {description ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.25 }}>
          {description}
        </Typography>
      ) : null}
    </Box>
  );
}
