import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';

const STEPS = [
  { title: '注册账号', description: '使用邮箱注册，并通过邮件验证码完成验证。' },
  { title: '生成研究画像', description: '粘贴导师或个人主页上的研究介绍，AI 自动整理研究方向与领域。' },
  { title: '查看推荐', description: '浏览按相关度排序的论文与新闻，随时调整筛选条件。' },
] as const;

/** How it works, in the order a new user meets the screens. */
export function LandingSteps() {
  return (
    <Box component="section" aria-labelledby="landing-steps" sx={{ py: { xs: 6, md: 9 } }}>
      <Container maxWidth="lg" sx={{ containerType: 'inline-size' }}>
        <Typography
          id="landing-steps"
          variant="h2"
          sx={{ fontSize: { xs: '1.625rem', md: '2rem' }, textAlign: 'center' }}
        >
          三步开始使用
        </Typography>
        <Box
          component="ol"
          sx={{
            listStyle: 'none',
            p: 0,
            m: 0,
            mt: { xs: 4, md: 6 },
            display: 'grid',
            gap: 4,
            gridTemplateColumns: '1fr',
            '@container (min-width: 720px)': { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' },
          }}
        >
          {STEPS.map((step, index) => (
            <Box component="li" key={step.title} sx={{ display: 'flex', gap: 2 }}>
              <Box
                aria-hidden
                sx={{
                  flexShrink: 0,
                  display: 'grid',
                  placeItems: 'center',
                  width: 36,
                  height: 36,
                  borderRadius: '50%',
                  bgcolor: 'primary.main',
                  color: 'primary.contrastText',
                  fontWeight: 700,
                }}
              >
                {index + 1}
              </Box>
              <Box>
                <Typography variant="h6" component="h3">
                  {step.title}
                </Typography>
                <Typography color="text.secondary" sx={{ mt: 0.5 }}>
                  {step.description}
                </Typography>
              </Box>
            </Box>
          ))}
        </Box>
      </Container>
    </Box>
  );
}
