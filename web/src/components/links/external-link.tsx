import Box from '@mui/material/Box';
import Link, { type LinkProps } from '@mui/material/Link';

const OPENS_IN_NEW_TAB = '（在新标签页打开）';

/**
 * A link to another site, opened in a new tab without giving it access to this page (noopener). Screen
 * readers also hear that it opens a new tab.
 */
export function ExternalLink({ children, ...props }: Omit<LinkProps, 'target' | 'rel'>) {
  return (
    <Link target="_blank" rel="noopener noreferrer" {...props}>
      {children}
      <Box
        component="span"
        sx={{
          position: 'absolute',
          width: '1px',
          height: '1px',
          overflow: 'hidden',
          clip: 'rect(0 0 0 0)',
          whiteSpace: 'nowrap',
        }}
      >
        {OPENS_IN_NEW_TAB}
      </Box>
    </Link>
  );
}
