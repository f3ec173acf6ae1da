export { Carousel } from "./Carousel";
export { PRODUCT_CAROUSEL, TESTIMONIAL_CAROUSEL, type CarouselOptions } from "./options";
