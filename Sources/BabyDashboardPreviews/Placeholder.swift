enum PreviewsPlaceholder {}
