console.log('animcore cli: not yet');
