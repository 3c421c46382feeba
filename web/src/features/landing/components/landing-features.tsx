import AutoAwesomeOutlined from '@mui/icons-material/AutoAwesomeOutlined';
import NewspaperOutlined from '@mui/icons-material/NewspaperOutlined';
import SubscriptionsOutlined from '@mui/icons-material/SubscriptionsOutlined';
import SummarizeOutlined from '@mui/icons-material/SummarizeOutlined';
import TrackChangesOutlined from '@mui/icons-material/TrackChangesOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import UpdateOutlined from '@mui/icons-material/UpdateOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ComponentType } from 'react';

type Feature = { title: string; description: string; icon: ComponentType<SvgIconProps> };

/** Paper subscription, news tracking, content summaries. */
const CORE_FEATURES: readonly Feature[] = [
  {
    title: '论文订阅',
    description: '根据你的研究方向与关注的关键词，持续筛选新发表的论文，不再需要逐个期刊翻阅。',
    icon: SubscriptionsOutlined,
  },
  {
    title: '新闻追踪',
    description: '汇集高校与科研机构发布的学术新闻，按与你研究方向的相关程度排序推荐。',
    icon: NewspaperOutlined,
  },
  {
    title: '内容摘要',
    description: '为论文和新闻提供简明摘要，几秒钟判断一篇内容是否值得深入阅读。',
    icon: SummarizeOutlined,
  },
];

/** Direction fit, summaries, multi-dimension filtering, real-time updates. */
const RECOMMENDATION_FEATURES: readonly Feature[] = [
  {
    title: '研究方向匹配',
    description: '将你的英文研究概述与论文、新闻做语义相似度比对，优先推荐与你的方向最契合的内容。',
    icon: TrackChangesOutlined,
  },
  {
    title: '智能摘要',
    description: 'AI 提炼论文的研究问题、方法与结论，阅读摘要前先看到要点。',
    icon: AutoAwesomeOutlined,
  },
  {
    title: '多维度筛选',
    description: '按发表时间、JCR 分区与相似度筛选推荐结果，只看你关心的范围。',
    icon: TuneOutlined,
  },
  {
    title: '实时更新',
    description: '新论文和新闻入库后即参与推荐，第一时间了解领域进展。',
    icon: UpdateOutlined,
  },
];

type FeatureSectionProps = {
  id: string;
  eyebrow: string;
  title: string;
  description: string;
  features: readonly Feature[];
  /** Columns on a wide content area; four collapse to two, then one. */
  columns: 3 | 4;
  tinted?: boolean;
};

function FeatureSection({ id, eyebrow, title, description, features, columns, tinted = false }: FeatureSectionProps) {
  return (
    <Box
      component="section"
      aria-labelledby={id}
      data-testid={id}
      sx={{ py: { xs: 6, md: 9 }, bgcolor: tinted ? 'background.paper' : 'transparent' }}
    >
      <Container maxWidth="lg" sx={{ containerType: 'inline-size' }}>
        <Box sx={{ textAlign: 'center', maxWidth: 640, mx: 'auto', mb: { xs: 4, md: 6 } }}>
          <Typography variant="overline" color="primary" sx={{ fontWeight: 700, letterSpacing: '0.12em' }}>
            {eyebrow}
          </Typography>
          <Typography id={id} variant="h2" sx={{ fontSize: { xs: '1.625rem', md: '2rem' } }}>
            {title}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1.5 }}>
            {description}
          </Typography>
        </Box>
        <Box
          sx={{
            display: 'grid',
            gap: 3,
            // Container queries: the width left beside the drawer decides, not the viewport.
            gridTemplateColumns: '1fr',
            ...(columns === 3
              ? { '@container (min-width: 760px)': { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' } }
              : {
                  '@container (min-width: 520px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
                  '@container (min-width: 1000px)': { gridTemplateColumns: 'repeat(4, minmax(0, 1fr))' },
                }),
          }}
        >
          {features.map((feature) => (
            <FeatureCard key={feature.title} feature={feature} />
          ))}
        </Box>
      </Container>
    </Box>
  );
}

function FeatureCard({ feature: { title, description, icon: Icon } }: { feature: Feature }) {
  return (
    <Card
      sx={(theme) => ({
        height: '100%',
        transition: theme.transitions.create(['border-color', 'box-shadow', 'transform']),
        '&:hover': {
          borderColor: alpha(theme.palette.primary.main, 0.4),
          boxShadow: `0 12px 32px -16px ${alpha(theme.palette.primary.dark, 0.3)}`,
          transform: 'translateY(-2px)',
        },
      })}
    >
      <CardContent>
        <Box
          aria-hidden
          sx={(theme) => ({
            display: 'grid',
            placeItems: 'center',
            width: 48,
            height: 48,
            mb: 2,
            borderRadius: 2,
            color: 'primary.main',
            bgcolor: alpha(theme.palette.primary.main, 0.1),
          })}
        >
          <Icon />
        </Box>
        <Typography variant="h5" component="h3">
          {title}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {description}
        </Typography>
      </CardContent>
    </Card>
  );
}

export function CoreFeaturesSection() {
  return (
    <FeatureSection
      id="landing-core-features"
      eyebrow="核心功能"
      title="追踪研究前沿，省下筛选文献的时间"
      description="把分散在期刊、数据库和机构网站上的新内容，按你的研究方向汇总到一处。"
      features={CORE_FEATURES}
      columns={3}
    />
  );
}

export function RecommendationFeaturesSection() {
  return (
    <FeatureSection
      id="landing-recommendation-features"
      eyebrow="智能推荐"
      title="推荐真正与你相关的内容"
      description="推荐由你的研究画像驱动，并由你决定范围与精度。"
      features={RECOMMENDATION_FEATURES}
      columns={4}
      tinted
    />
  );
}
