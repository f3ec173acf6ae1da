import type { ReactNode } from "react";
import { deferred, SERVICE_HOURS, telHref, PhoneIcon, POLICY_LINKS, SiteLink } from "~/components/shared";
import type { PublicConfig } from "~/public-config.server";

/** Below every page's fold: the reviews' and the signup form's script load when they come near the screen. */
const TestimonialBlock = deferred(() => import("../Testimonials").then((module) => module.TestimonialBlock));
const NewsletterSignup = deferred(() => import("../NewsletterSignup").then((module) => module.NewsletterSignup), {
  name: "newsletter-signup",
});

/**
 * Customer reviews (optional), mailing-list signup, talk to an expert, the
 * policy and contact links, social links and the copyright line.
 */
export function SiteFooter({ store, showTestimonials = true }: { store: PublicConfig; showTestimonials?: boolean }) {
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <div className="container">
        {showTestimonials ? (
          <div className="site-footer__testimonials">
            <TestimonialBlock headingId="footer-testimonials-heading" />
          </div>
        ) : null}

        <div className="site-footer__grid">
          <NewsletterSignup />

          <section aria-labelledby="footer-expert-heading">
            <h2 id="footer-expert-heading" className="site-footer__heading">
              Talk to an expert
            </h2>
            <p>Not sure which grill, heater or layout fits? Our experts are glad to help.</p>
            <p>
              <a className="site-footer__phone" href={telHref(store.storePhone)}>
                <PhoneIcon />
                <span>
                  <span className="visually-hidden">Call </span>
                  {store.storePhone}
                </span>
              </a>
            </p>
            <p className="site-footer__hours">{SERVICE_HOURS}</p>
            <p>
              <SiteLink to="/contact">Send us a message</SiteLink>
            </p>
          </section>

          <nav aria-labelledby="footer-help-heading">
            <h2 id="footer-help-heading" className="site-footer__heading">
              Customer service
            </h2>
            <ul className="site-footer__links">
              {POLICY_LINKS.map((link) => (
                <li key={link.to}>
                  <SiteLink to={link.to}>{link.label}</SiteLink>
                </li>
              ))}
            </ul>
          </nav>

          <section aria-labelledby="footer-social-heading">
            <h2 id="footer-social-heading" className="site-footer__heading">
              Follow us
            </h2>
            <ul className="social-links">
              {SOCIAL_LINKS.map((social) => (
                <li key={social.name}>
                  <a
                    href={social.href}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`${social.name} (opens in a new tab)`}
                    className="social-links__link"
                  >
                    {social.icon}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        </div>

        <p className="site-footer__copyright">
          © {year} {store.storeName}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}

const iconProps = {
  width: 22,
  height: 22,
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round" as const,
  strokeLinejoin: "round" as const,
  "aria-hidden": true,
  focusable: false,
};

const SOCIAL_LINKS: Array<{ name: string; href: string; icon: ReactNode }> = [
  {
    name: "Facebook",
    href: "https://www.facebook.com/",
    icon: (
      <svg {...iconProps}>
        <path d="M18 2h-3a5 5 0 0 0-5 5v3H7v4h3v8h4v-8h3l1-4h-4V7a1 1 0 0 1 1-1h3z" />
      </svg>
    ),
  },
  {
    name: "Instagram",
    href: "https://www.instagram.com/",
    icon: (
      <svg {...iconProps}>
        <rect x="2" y="2" width="20" height="20" rx="5" />
        <circle cx="12" cy="12" r="4" />
        <path d="M17.5 6.5h.01" />
      </svg>
    ),
  },
  {
    name: "YouTube",
    href: "https://www.youtube.com/",
    icon: (
      <svg {...iconProps}>
        <path d="M22.5 6.4a2.8 2.8 0 0 0-1.9-2C18.9 4 12 4 12 4s-6.9 0-8.6.5a2.8 2.8 0 0 0-1.9 2A29 29 0 0 0 1 12a29 29 0 0 0 .5 5.6 2.8 2.8 0 0 0 1.9 1.9c1.7.5 8.6.5 8.6.5s6.9 0 8.6-.5a2.8 2.8 0 0 0 1.9-1.9A29 29 0 0 0 23 12a29 29 0 0 0-.5-5.6z" />
        <path d="M9.8 15.5 15.5 12 9.8 8.5z" />
      </svg>
    ),
  },
  {
    name: "Pinterest",
    href: "https://www.pinterest.com/",
    icon: (
      <svg {...iconProps}>
        <circle cx="12" cy="12" r="10" />
        <path d="M11 8.5c2.5-1 5 .3 5 2.8 0 2.3-1.6 4-3.6 4-1 0-1.7-.6-1.7-.6M12 11l-2.5 10" />
      </svg>
    ),
  },
  {
    name: "X",
    href: "https://x.com/",
    icon: (
      <svg {...iconProps}>
        <path d="M4 4l11.7 16H20L8.3 4z" />
        <path d="M4 20l6.8-7.3M20 4l-6.4 6.9" />
      </svg>
    ),
  },
];
