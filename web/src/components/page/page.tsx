import Box from '@mui/material/Box';
import Container, { type ContainerProps } from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useDocumentTitle } from '@/hooks/use-document-title';

type PageProps = {
  /** The h1 of the page and the browser tab title. */
  title: string;
  subtitle?: ReactNode;
  /** Buttons or icons shown at the end of the header row. */
  actions?: ReactNode;
  maxWidth?: ContainerProps['maxWidth'];
  children?: ReactNode;
};

/** Frame of every screen inside the shell: tab title, heading, subtitle, content width. */
export function Page({ title, subtitle, actions, maxWidth = 'lg', children }: PageProps) {
  useDocumentTitle(title);
  return (
    <Container maxWidth={maxWidth} sx={{ py: { xs: 3, md: 5 } }}>
      <Box
        component="header"
        sx={{
          display: 'flex',
          alignItems: 'flex-start',
          justifyContent: 'space-between',
          gap: 2,
          mb: { xs: 3, md: 4 },
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h3" component="h1">
            {title}
          </Typography>
          {subtitle ? (
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              {subtitle}
            </Typography>
          ) : null}
        </Box>
        {actions ? <Box sx={{ flexShrink: 0 }}>{actions}</Box> : null}
      </Box>
      {children}
    </Container>
  );
}
