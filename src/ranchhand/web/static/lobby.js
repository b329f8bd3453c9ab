// lobby page
